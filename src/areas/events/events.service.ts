import type { EventsRepository } from '../documents/documents.ports';
import { DOCUMENT_EVENT_TYPES, type DocumentEvent, type EventType } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import { offsetOf, pageMeta, parsePageRequest, type Page, type PageInput } from '../../kernel/pagination';

/** Event lists are paginated as event documents are. */
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
