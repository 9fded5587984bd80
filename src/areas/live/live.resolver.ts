import { Arg, Ctx, Resolver, Root, Subscription } from 'type-graphql';
import { DomainError } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import type { LiveEvent, LiveFeed, LiveItem } from './live.types';
import type { DocumentReads } from '../documents/documents.ports';
import type { NoteReads } from '../notes/notes.ports';
import type { OutboxAccess } from '../outbox/outbox.ports';
import type { PaymentReads } from '../payments/payments.ports';
import type { WebhookReads } from '../webhooks/webhooks.ports';
import { formatInstant } from '../../kernel/time';
import type { GraphqlContext } from '../../graphql/context';
import type { LoaderSource } from '../../graphql/loaders';
import { resolverOf } from '../../graphql/resolver-instances';
import { DocumentObject, EventObject, type EventView } from '../documents/documents.graphql';
import {
  DocumentChangedObject,
  EsignMessageChangedObject,
  EsignStatusUpdateObject,
  FacilityActivityTypeEnum,
  FacilityActivityUnion,
  LiveEventObject,
  MoveInReviewedObject,
  NoteCreatedObject,
  PaymentSucceededObject,
  type FacilityActivityType,
} from './live.graphql';
import { NoteEventObject } from '../notes/notes.graphql';
import { outboxMessageView } from '../outbox/outbox.graphql';
import { SuccessfulPaymentEventObject } from '../payments/payments.graphql';
import { UUIDScalar } from '../../graphql/scalars';
import { WebhookDeliveryObject, webhookDeliveryView } from '../webhooks/webhooks.graphql';

/** The services the subscriptions call: the live events, the records they are about, fresh loaders'. */
interface ResolverServices {
  readonly loaders: LoaderSource;
  readonly documents: DocumentReads;
  readonly notes: NoteReads;
  readonly live: LiveFeed;
  readonly outbox: OutboxAccess;
  readonly payments: PaymentReads;
  readonly webhooks: WebhookReads;
}

/** The e-sign and document events that change an event's signing state. */
const ESIGN_TYPES: readonly FacilityActivityType[] = [
  'esign.sent',
  'esign.delivered',
  'esign.failed',
  'document.viewed',
  'document.signed',
];

const DELIVERY_TYPE = 'webhook.delivery';

interface FacilityActivityArgs {
  facilityId: string;
  types?: FacilityActivityType[] | null;
  since?: string | null;
}

/** A cursor an event gave (`since`), as its number; null when none was given. */
export function readSince(since: string | null | undefined): number | null {
  if (since === null || since === undefined) return null;
  if (!/^\d{1,15}$/.test(since)) {
    throw DomainError.invalidParameter(
      ['since'],
      'must be the cursor of an event this service sent (digits)',
    );
  }
  return Number(since);
}

/** The item's event; an item saying the service ended the subscription is its error. */
function eventOf(item: LiveItem): LiveEvent | null {
  if (item.kind === 'start') return null;
  if (item.kind === 'event') return item.event;
  throw new DomainError(item.reason === 'slow_consumer' ? 'rate_limited' : 'gone', item.message);
}

/**
 * The records an event is about, read once for all its subscribers: the hub hands each the same
 * event object, and every subscriber of a facility is of its company. Kept as long as the event is.
 */
const recordsOfEvents = new WeakMap<LiveEvent, Promise<LiveEventObject>>();

function dataOf(event: LiveEvent): Record<string, unknown> {
  const parsed = JSON.parse(event.body) as { data?: Record<string, unknown> };
  return parsed.data ?? {};
}

/** The event as its member of FacilityActivity, with the records it is about read now. */
async function activityOf(
  event: LiveEvent,
  facility: Facility,
  services: ResolverServices,
): Promise<LiveEventObject> {
  const data = dataOf(event);
  const base = {
    cursor: String(event.seq),
    type: event.type as FacilityActivityType,
    occurredAt: formatInstant(event.occurredAt, facility.timeZone),
    facilityId: facility.id,
    data: JSON.stringify(data),
  };
  const zone = facility.timeZone;
  const id = typeof data.id === 'string' ? data.id : null;
  switch (event.type) {
    case 'payment.succeeded': {
      const [payment] = event.eventId ? await services.payments.paymentsByIds([event.eventId]) : [null];
      return Object.assign(new PaymentSucceededObject(), base, {
        payment: payment ? SuccessfulPaymentEventObject.present(payment, zone) : null,
      });
    }
    case 'note.created': {
      const [note] = id ? await services.notes.noteEventsByIds([id]) : [null];
      return Object.assign(new NoteCreatedObject(), base, {
        noteEvent: note ? NoteEventObject.present(note, zone) : null,
      });
    }
    case 'esign.sent':
    case 'esign.delivered':
    case 'esign.failed': {
      const [message] = id ? await services.outbox.messagesByIds([id]) : [null];
      const [owner] = event.eventId ? await services.documents.eventsByIds([event.eventId]) : [null];
      return Object.assign(new EsignMessageChangedObject(), base, {
        message: message ? outboxMessageView(message, zone) : null,
        event: owner ? EventObject.present(owner, zone) : null,
      });
    }
    case 'document.viewed':
    case 'document.signed': {
      const [documents] = event.eventId
        ? await services.documents.documentsByEventIds([event.eventId])
        : [[]];
      const document = documents.find((candidate) => candidate.id === id);
      return Object.assign(new DocumentChangedObject(), base, {
        document: document ? DocumentObject.present(document, zone) : null,
      });
    }
    default:
      return Object.assign(new MoveInReviewedObject(), base);
  }
}

/** GraphQL subscriptions (graphql-ws and SSE on /graphql): what happens, after it is committed. */
@Resolver()
export class LiveResolver {
  constructor(private readonly services: ResolverServices) {}

  @Subscription(() => FacilityActivityUnion, {
    description:
      "The facility's activity as it happens: payments, notes, move-in reviews, e-sign messages and " +
      "documents (the webhooks' events), each with the record it is about. `types` keeps some; " +
      '`since` (a cursor) first replays what came after it, if still kept (else GONE: query again, then ' +
      "subscribe without it). FORBIDDEN for another company's facility, NOT_FOUND for an unknown one; " +
      'RATE_LIMITED when events waited unread too long (slow consumer).',
    subscribe: ({ args, context, info }) =>
      resolverOf(info, LiveResolver).openFacilityActivity(
        args as FacilityActivityArgs,
        context as GraphqlContext,
      ),
  })
  async facilityActivity(
    @Root() item: LiveItem,
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('types', () => [FacilityActivityTypeEnum], { nullable: true }) _types: FacilityActivityType[] | null,
    @Arg('since', () => String, { nullable: true }) _since: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<LiveEventObject> {
    const event = eventOf(item);
    if (event === null) throw new Error('facilityActivity asked for no start item');
    this.freshLoaders(ctx);
    const facility = await ctx.loaders.facility(facilityId, ['facilityId']);
    let activity = recordsOfEvents.get(event);
    if (!activity) {
      activity = activityOf(event, facility, this.services);
      recordsOfEvents.set(event, activity);
    }
    return activity;
  }

  /** Subscription.facilityActivity's events, once the facility is found to be the caller's. */
  async openFacilityActivity(
    { facilityId, types, since }: FacilityActivityArgs,
    ctx: GraphqlContext,
  ): Promise<AsyncIterableIterator<LiveItem>> {
    const facility = await ctx.loaders.facility(facilityId, ['facilityId']);
    return this.services.live.subscribe(
      { facilityId: facility.id, types },
      readSince(since ?? ctx.lastEventId),
    );
  }

  @Subscription(() => EsignStatusUpdateObject, {
    description:
      "An event's e-sign state and its documents': first as it is now, then again after each e-sign " +
      'message or document change. FORBIDDEN for an event of another company, NOT_FOUND for an unknown one.',
    subscribe: ({ args, context, info }) =>
      resolverOf(info, LiveResolver).openEsignStatus(args as { eventId: string }, context as GraphqlContext),
  })
  async esignStatus(
    @Root() item: LiveItem,
    @Arg('eventId', () => UUIDScalar) eventId: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<EsignStatusUpdateObject> {
    const change = eventOf(item);
    this.freshLoaders(ctx);
    const [owner] = await this.services.documents.eventsByIds([eventId]);
    if (!owner) throw DomainError.notFound(['eventId'], 'event', eventId);
    const facility = await ctx.loaders.facility(owner.facilityId, ['eventId']);
    return {
      cursor: change ? String(change.seq) : null,
      cause: change ? (change.type as FacilityActivityType) : null,
      event: EventObject.present(owner, facility.timeZone),
    };
  }

  /** Subscription.esignStatus's items, once the event is found to be of the caller's company. */
  async openEsignStatus(
    { eventId }: { eventId: string },
    ctx: GraphqlContext,
  ): Promise<AsyncIterableIterator<LiveItem>> {
    const [owner] = await this.services.documents.eventsByIds([eventId]);
    if (!owner) throw DomainError.notFound(['eventId'], 'event', eventId);
    await ctx.loaders.facility(owner.facilityId, ['eventId']);
    return this.services.live.subscribe(
      { facilityId: owner.facilityId, eventId: owner.id, types: ESIGN_TYPES },
      null,
      { start: true },
    );
  }

  @Subscription(() => EventObject, {
    description:
      'An event of the facility with its documents: first as it is now, then again after each change of ' +
      "its documents or their signing. In gateway mode, whenever the upstream's GET " +
      '/v1/:facility_id/events/:event_id/documents answers differently (polled every UPSTREAM_POLL_MS, ' +
      "once for all its subscribers). NOT_FOUND for an unknown event, FORBIDDEN for another company's facility.",
    subscribe: ({ args, context, info }) =>
      resolverOf(info, LiveResolver).openEventDocuments(
        args as { facilityId: string; eventId: string },
        context as GraphqlContext,
      ),
  })
  async eventDocuments(
    @Root() item: LiveItem,
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('eventId', () => UUIDScalar) eventId: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<EventView> {
    eventOf(item);
    this.freshLoaders(ctx);
    const facility = await ctx.loaders.facility(facilityId, ['facilityId']);
    const owner = await this.services.documents.eventFor(facility, eventId, ['eventId']);
    return EventObject.present(owner, facility.timeZone);
  }

  /** Subscription.eventDocuments's items, once the event is found in the caller's facility. */
  async openEventDocuments(
    { facilityId, eventId }: { facilityId: string; eventId: string },
    ctx: GraphqlContext,
  ): Promise<AsyncIterableIterator<LiveItem>> {
    const facility = await ctx.loaders.facility(facilityId, ['facilityId']);
    const owner = await this.services.documents.eventFor(facility, eventId, ['eventId']);
    return this.services.live.subscribe(
      { facilityId: facility.id, eventId: owner.id, types: ESIGN_TYPES },
      null,
      { start: true },
    );
  }

  @Subscription(() => WebhookDeliveryObject, {
    description:
      "A webhook endpoint's deliveries as each attempt ends (sent or failed). `since` replays as for " +
      "facilityActivity. NOT_FOUND for an unknown endpoint or another company's.",
    subscribe: ({ args, context, info }) =>
      resolverOf(info, LiveResolver).openWebhookDeliveries(
        args as { endpointId: string; since?: string | null },
        context as GraphqlContext,
      ),
  })
  async webhookDeliveries(
    @Root() item: LiveItem,
    @Arg('endpointId', () => UUIDScalar) _endpointId: string,
    @Arg('since', () => String, { nullable: true }) _since: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<WebhookDeliveryObject> {
    const event = eventOf(item);
    if (event === null) throw new Error('webhookDeliveries asked for no start item');
    const delivery = await this.services.webhooks.deliveryInScope(
      { companyId: ctx.caller.companyId },
      event.body,
    );
    if (!delivery) throw DomainError.notFound(['endpointId'], 'webhook delivery', event.body);
    return webhookDeliveryView(delivery);
  }

  /** Subscription.webhookDeliveries's events, once the endpoint is found to be the caller's company's. */
  async openWebhookDeliveries(
    { endpointId, since }: { endpointId: string; since?: string | null },
    ctx: GraphqlContext,
  ): Promise<AsyncIterableIterator<LiveItem>> {
    const endpoint = await this.services.webhooks.endpointFor(
      { companyId: ctx.caller.companyId },
      endpointId,
      ['endpointId'],
    );
    return this.services.live.subscribe(
      { facilityId: null, eventId: endpoint.id, types: [DELIVERY_TYPE] },
      readSince(since ?? ctx.lastEventId),
    );
  }

  /** Each delivered event reads records as they are now, not as an earlier event's loaders kept them. */
  private freshLoaders(ctx: GraphqlContext): void {
    ctx.loaders = this.services.loaders(ctx.caller);
  }
}
