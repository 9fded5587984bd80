import { CompaniesResolver, FacilitiesResolver } from './facilities.resolver';
import { FlippersResolver } from './flippers.resolver';
import { READ_AREA_RESOLVERS } from './read-area.resolvers';
import { DocumentDownloadsResolver, MoveInsResolver } from './move-ins.resolver';
import { EventPaymentResolver, PaymentsResolver } from './payments.resolver';
import { OutboxResolver } from './outbox.resolver';
import { EsignResolver } from './esign.resolver';
import {
  DocumentEsignResolver,
  EsignLinksResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
} from './esign-status.resolver';
import { CompanyWebhooksResolver, WebhookEndpointsResolver } from './webhooks.resolver';
import { LiveResolver } from './live.resolver';

/**
 * Every resolver class of the schema. An area adds its `<area>.resolver.ts` here: field resolvers
 * on `FacilityObject` / `CompanyObject` (or on its own object types), calling only its service.
 */
export const RESOLVERS = [
  FacilitiesResolver,
  CompaniesResolver,
  FlippersResolver,
  ...READ_AREA_RESOLVERS,
  MoveInsResolver,
  DocumentDownloadsResolver,
  PaymentsResolver,
  EventPaymentResolver,
  OutboxResolver,
  EsignResolver,
  DocumentEsignResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
  EsignLinksResolver,
  CompanyWebhooksResolver,
  WebhookEndpointsResolver,
  LiveResolver,
] as const;
