import { parseSlice, type ConnectionArgs, type Slice } from '../../kernel/connections';
import { normalizeId } from '../../kernel/ids';
import type { EventsRepository } from '../documents/documents.ports';
import { DOCUMENT_EVENT_TYPES, type DocumentEvent, type EventType } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import { offsetOf, pageMeta, parsePageRequest, type Page, type PageInput } from '../../kernel/pagination';

/** Event lists are paginated as event documents are. */
/** The list a cursor of a facility's events names. */
export const EVENT_CURSOR_LIST = 'Facility.events';

export const EVENT_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

/** A page of a facility's events, of one type or (without one) all. */
export interface EventsQuery extends PageInput {
  type?: EventType | null;
  /** Only these events (those in an e-sign state, say); all of the facility's when not given. */
  ids?: readonly string[];
}

/** The facility's move-in, move-out and successful payment events (the owners of documents). */
export class EventsService {
  constructor(private readonly repository: EventsRepository) {}

  /**
   * One page of the facility's events, of one type or all, optionally only some of them, oldest
   * first (created_at, then id).
   */
  /** The same list walked by cursor (created_at, then id), bound to the list and the facility. */
  async connection(
    facility: Facility,
    query: Omit<EventsQuery, 'page' | 'perPage'>,
    args: ConnectionArgs,
  ): Promise<Slice<DocumentEvent>> {
    const slice = parseSlice(args, { list: EVENT_CURSOR_LIST, owner: normalizeId(facility.id) }, 2);
    const filter = { types: query.type ? [query.type] : DOCUMENT_EVENT_TYPES, ids: query.ids };
    if (filter.ids?.length === 0) return { entries: [], keys: [], more: false, total: 0 };
    return this.repository.slice(facility.id, filter, slice);
  }

  async list(facility: Facility, query: EventsQuery): Promise<Page<DocumentEvent>> {
    const filter = { types: query.type ? [query.type] : DOCUMENT_EVENT_TYPES, ids: query.ids };
    const request = parsePageRequest(query, EVENT_PAGE_LIMITS);
    if (filter.ids?.length === 0) return { entries: [], pagination: pageMeta(0, request) };
    const [total, entries] = await Promise.all([
      this.repository.count(facility.id, filter),
      this.repository.page(facility.id, filter, request.perPage, offsetOf(request)),
    ]);
    return { entries, pagination: pageMeta(total, request) };
  }
}
