import { CompaniesResolver, FacilitiesResolver } from '../areas/facilities/facilities.resolver';
import { FlippersResolver } from '../areas/flippers/flippers.resolver';
import { READ_AREA_RESOLVERS } from './read-area.resolvers';
import { DocumentDownloadsResolver, MoveInsResolver } from '../areas/move-ins/move-ins.resolver';
import { EventPaymentResolver, PaymentsResolver } from '../areas/payments/payments.resolver';
import { OutboxResolver } from '../areas/outbox/outbox.resolver';
import { EsignResolver } from '../areas/esign/esign.resolver';
import {
  DocumentEsignListsResolver,
  DocumentEsignResolver,
  EsignLinksResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
} from '../areas/esign/esign-status.resolver';
import { CompanyWebhooksResolver, WebhookEndpointsResolver } from '../areas/webhooks/webhooks.resolver';
import { LiveResolver } from '../areas/live/live.resolver';
import type { EventsService } from '../areas/events/events.service';
import type { FlippersService } from '../areas/flippers/flippers.service';
import type { LiveFeed } from '../areas/live/live.types';
import type { MoveInsService } from '../areas/move-ins/move-ins.service';
import type { OutboxService } from '../areas/outbox/outbox.service';
import type { PaymentsService } from '../areas/payments/payments.service';
import type { RateAppliedActionsService } from '../areas/rate-applied-actions/rate-applied-actions.service';
import type { RateChangesService } from '../areas/rate-changes/rate-changes.service';
import type { WebhooksService } from '../areas/webhooks/webhooks.service';
import type { LoaderServices } from './loaders';
import type { ResolverClassOf } from './resolver-instances';

/**
 * The domain services the schema's resolvers call, all together; each resolver class names the
 * few it uses (its `ResolverServices`) and is made with them once per app (see `servedSchema`).
 */
export interface SchemaServices extends LoaderServices {
  readonly events: EventsService;
  readonly flippers: FlippersService;
  readonly moveIns: MoveInsService;
  readonly outbox: OutboxService;
  readonly payments: PaymentsService;
  readonly rateAppliedActions: RateAppliedActionsService;
  readonly rateChanges: RateChangesService;
  readonly webhooks: WebhooksService;
  /** Subscriptions' events. */
  readonly live: LiveFeed;
}

/** A resolver class of the schema: made with the services it uses, or with none. */
export type ResolverClass = ResolverClassOf<SchemaServices>;

/**
 * Every resolver class of the schema. An area adds its `<area>.resolver.ts` here: field resolvers
 * on `FacilityObject` / `CompanyObject` (or on its own object types), made with the services it
 * names (a service it needs that is not in `SchemaServices` is added there).
 */
export const RESOLVERS: readonly ResolverClass[] = [
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
  DocumentEsignListsResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
  EsignLinksResolver,
  CompanyWebhooksResolver,
  WebhookEndpointsResolver,
  LiveResolver,
];
