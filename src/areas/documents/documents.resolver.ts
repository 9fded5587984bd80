import { Arg, Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import { DOCUMENT_PAGE_LIMITS, type DocumentsService } from './documents.service';
import type { EventType } from './documents.types';
import type { EsignStates } from '../esign/esign.ports';
import type { EventListing } from '../events/events.ports';
import { EVENT_CURSOR_LIST, EVENT_PAGE_LIMITS } from '../events/events.types';
import { normalizeId } from '../../kernel/ids';
import type { Facility } from '../facilities/facilities.types';
import type { GraphqlContext } from '../../graphql/context';
import {
  present as presentDocument,
  presentEvent,
  type DocumentView,
  type EventView,
} from './event-document.contract';
import {
  DocumentConnectionObject,
  DocumentObject,
  DocumentPageObject,
  EventConnectionObject,
  EventObject,
  EventPageObject,
  EventTypeEnum,
} from './documents.graphql';
import { EsignStateEnum, type EsignStateValue } from '../esign/esign-status.graphql';
import { FacilityObject } from '../facilities/facilities.graphql';
import { pageCost, pageOfLoaded, paginationOf, type PageView } from '../../graphql/pagination';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOf,
  connectionOfLoaded,
  type ConnectionView,
} from '../../graphql/connection';
import { UUIDScalar } from '../../graphql/scalars';

const PAGE_DESCRIPTION = '1-based page number (default 1).';
const PER_PAGE_DESCRIPTION = 'Page size (default 100; above 100 reads as 100).';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly documents: DocumentsService;
  readonly esign: EsignStates;
  readonly events: EventListing;
}

/** A facility's events and their documents: the data of GET /v1/:facility_id/events/:event_id/documents. */
@Resolver(() => FacilityObject)
export class FacilityEventsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => EventPageObject, {
    description:
      "The facility's events, of one type or all, optionally only those in one e-sign state, oldest " +
      'first (created_at, then id).',
  })
  @Cost(pageCost(EVENT_PAGE_LIMITS.maxPerPage))
  async events(
    @Root() facility: Facility,
    @Ctx() ctx: GraphqlContext,
    @Arg('type', () => EventTypeEnum, { nullable: true }) type?: EventType | null,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('perPage', () => Int, { nullable: true, description: PER_PAGE_DESCRIPTION }) perPage?: number | null,
    @Arg('esignState', () => EsignStateEnum, {
      nullable: true,
      description: 'Only events whose e-sign state (Event.esignState) is this one now.',
    })
    esignState?: EsignStateValue | null,
  ): Promise<PageView<EventView>> {
    const ids = esignState ? await this.services.esign.eventIdsInState(facility, esignState) : undefined;
    const result = await this.services.events.list(facility, { type, page, perPage, ids });
    return {
      entries: result.entries.map((event) => presentEvent(event, facility.timeZone)),
      pagination: paginationOf(result.pagination),
    };
  }

  @FieldResolver(() => EventConnectionObject, {
    description: 'The events of events walked by cursor (Relay connection): the same filters and order.',
  })
  @Cost(connectionCost())
  async eventsConnection(
    @Root() facility: Facility,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
    @Arg('type', () => EventTypeEnum, { nullable: true }) type?: EventType | null,
    @Arg('esignState', () => EsignStateEnum, {
      nullable: true,
      description: 'Only events whose e-sign state (Event.esignState) is this one now.',
    })
    esignState?: EsignStateValue | null,
  ): Promise<ConnectionView<EventView>> {
    const ids = esignState ? await this.services.esign.eventIdsInState(facility, esignState) : undefined;
    const slice = await this.services.events.connection(facility, { type, ids }, args);
    const scope = { list: EVENT_CURSOR_LIST, owner: normalizeId(facility.id) };
    return connectionOf(slice, scope, args, (event) => presentEvent(event, facility.timeZone));
  }

  @FieldResolver(() => EventObject, {
    nullable: true,
    description:
      "One event of the facility: a move-in, move-out or successful payment event (NOT_FOUND otherwise, also for another facility's).",
  })
  async event(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<EventView> {
    const event = await this.services.documents.eventFor(facility, id, ['id']);
    return presentEvent(event, facility.timeZone);
  }
}

@Resolver(() => EventObject)
export class EventsResolver {
  @FieldResolver(() => DocumentPageObject, {
    description:
      'The documents of the event, by created_at then id; the same pages as GET /v1/:facility_id/events/:event_id/documents.',
  })
  @Cost(pageCost(DOCUMENT_PAGE_LIMITS.maxPerPage))
  async documents(
    @Root() event: EventView,
    @Ctx() ctx: GraphqlContext,
    @Arg('page', () => Int, { nullable: true, description: PAGE_DESCRIPTION }) page?: number | null,
    @Arg('perPage', () => Int, { nullable: true, description: PER_PAGE_DESCRIPTION }) perPage?: number | null,
  ): Promise<PageView<DocumentView>> {
    // Through the loader, so the documents of a whole page of events come in one statement.
    const all = await ctx.loaders.documentsByEvent.load(event.id);
    const result = pageOfLoaded(all, { page, perPage }, DOCUMENT_PAGE_LIMITS);
    return {
      entries: result.entries.map((document) => ({ ...presentDocument(document, event.timeZone), event })),
      pagination: result.pagination,
    };
  }

  @FieldResolver(() => DocumentConnectionObject, {
    description: 'The documents of documents walked by cursor (Relay connection): created_at, then id.',
  })
  @Cost(connectionCost())
  async documentsConnection(
    @Root() event: EventView,
    @Ctx() ctx: GraphqlContext,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): Promise<ConnectionView<DocumentView>> {
    // Through the same loader as documents: the lists of a whole page of events in one statement.
    const all = await ctx.loaders.documentsByEvent.load(event.id);
    return connectionOfLoaded(
      all,
      args,
      {
        scope: { list: 'Event.documents', owner: event.id },
        keyOf: (document) => [document.createdAt, document.id],
        arity: 2,
      },
      (document) => ({ ...presentDocument(document, event.timeZone), event }),
    );
  }

  @FieldResolver(() => FacilityObject)
  async facility(@Root() event: EventView, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    const facility = await ctx.loaders.facilities.load(event.facilityId);
    // An event reached here was checked to be the caller's, so its facility is too.
    if (!facility) throw new Error(`facility ${event.facilityId} of event ${event.id} is missing`);
    return facility;
  }
}

@Resolver(() => DocumentObject)
export class DocumentsResolver {
  @FieldResolver(() => EventObject, { description: 'The event the document belongs to.' })
  async event(
    @Root() document: DocumentView & { event?: EventView },
    @Ctx() ctx: GraphqlContext,
  ): Promise<EventView> {
    if (document.event) return document.event;
    const event = await ctx.loaders.events.load(document.eventId);
    if (!event) throw new Error(`event ${document.eventId} of document ${document.id} is missing`);
    return presentEvent(event, document.timeZone);
  }
}
