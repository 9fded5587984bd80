import { DOCUMENT_EVENT_TYPES } from '../../store/repositories/documents.repository';
import type { EventsRepository } from '../../store/repositories/events.repository';
import { eventRowToEvent } from '../documents/documents.service';
import type { DocumentEvent, EventType } from '../documents/documents.types';
import { DomainError } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { offsetOf, pageMeta, parsePageRequest, type Page } from '../shared/pagination';

/** Event lists are paginated as event documents are. */
export const EVENT_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

export interface EventsQuery {
  type?: unknown;
  page?: unknown;
  per_page?: unknown;
}

function readType(raw: unknown): readonly EventType[] {
  if (raw === undefined || raw === null) return DOCUMENT_EVENT_TYPES;
  if (typeof raw === 'string' && (DOCUMENT_EVENT_TYPES as readonly string[]).includes(raw)) {
    return [raw as EventType];
  }
  throw DomainError.invalidParameter('type', `must be one of ${DOCUMENT_EVENT_TYPES.join(', ')}`);
}

/** The facility's move-in, move-out and successful payment events (the owners of documents). */
export class EventsService {
  constructor(private readonly repository: EventsRepository) {}

  /** One page of the facility's events, of one type or all, oldest first (created_at, then id). */
  async list(facility: Facility, query: EventsQuery): Promise<Page<DocumentEvent>> {
    const types = readType(query.type);
    const request = parsePageRequest(query, EVENT_PAGE_LIMITS);
    const [total, rows] = await Promise.all([
      this.repository.count(facility.id, types),
      this.repository.page(facility.id, types, request.perPage, offsetOf(request)),
    ]);
    return { entries: rows.map(eventRowToEvent), pagination: pageMeta(total, request) };
  }
}
