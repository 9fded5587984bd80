import { parseSlice, type ConnectionArgs, type Slice } from '../../kernel/connections';
import { normalizeId } from '../../kernel/ids';
import type { EventsRepository } from '../documents/documents.ports';
import { DOCUMENT_EVENT_TYPES, type DocumentEvent } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import { offsetOf, pageMeta, parsePageRequest, type Page } from '../../kernel/pagination';
import type { EventListing } from './events.ports';
import { EVENT_CURSOR_LIST, EVENT_PAGE_LIMITS, type EventsQuery } from './events.types';

/** The facility's move-in, move-out and successful payment events (the owners of documents). */
export class EventsService implements EventListing {
  constructor(private readonly repository: EventsRepository) {}

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

  /**
   * One page of the facility's events, of one type or all, optionally only some of them, oldest
   * first (created_at, then id).
   */
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
