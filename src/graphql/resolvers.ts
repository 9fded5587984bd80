import { CompaniesResolver, FacilitiesResolver } from '../areas/facilities/facilities.resolver';
import { FlippersResolver } from '../areas/flippers/flippers.resolver';
import { READ_AREA_RESOLVERS } from './read-area.resolvers';
import { DocumentDownloadsResolver, MoveInsResolver } from '../areas/move-ins/move-ins.resolver';
import { EventPaymentResolver, PaymentsResolver } from '../areas/payments/payments.resolver';
import { OutboxResolver } from '../areas/outbox/outbox.resolver';
import { EsignResolver } from '../areas/esign/esign.resolver';
import {
  DocumentEsignResolver,
  EsignLinksResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
} from '../areas/esign/esign-status.resolver';
import { CompanyWebhooksResolver, WebhookEndpointsResolver } from '../areas/webhooks/webhooks.resolver';
import { LiveResolver } from '../areas/live/live.resolver';

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
