import type { Clock } from '../../clock';
import type {
  DocumentsRepository,
  EventDocumentRow,
  EventRow,
} from '../../store/repositories/documents.repository';
import { DomainError } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../shared/ids';
import { offsetOf, pageMeta, parsePageRequest, type Page } from '../shared/pagination';
import type { DocumentEvent, EventDocument } from './documents.types';

/** Event document lists: per_page 100 by default and at most (DESIGN 6, Documents). */
export const DOCUMENT_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

export function eventRowToEvent(row: EventRow): DocumentEvent {
  return {
    id: row.id,
    facilityId: row.facility_id,
    type: row.type,
    ledgerId: row.ledger_id,
    createdAt: row.created_at,
  };
}

export function documentRowToDocument(row: EventDocumentRow): EventDocument {
  return {
    id: row.id,
    eventId: row.event_id,
    description: row.description,
    type: row.type,
    isRelevant: row.is_relevant === 1,
    esignable: row.esignable === 1,
    createdAt: row.created_at,
  };
}

export class DocumentsService {
  constructor(
    private readonly repository: DocumentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The facility's move-in, move-out or successful payment event (404/9 naming the parameter
   * for anything else, including an event of another facility).
   */
  async eventFor(facility: Facility, eventId: string, parameter = 'event_id'): Promise<DocumentEvent> {
    if (!isUuid(eventId)) throw DomainError.notFound(parameter, 'event', eventId);
    const row = await this.repository.findFacilityEvent(facility.id, normalizeId(eventId));
    if (!row) throw DomainError.notFound(parameter, 'event', eventId);
    return eventRowToEvent(row);
  }

  /** One page of the event's documents, sorted by created_at then id. */
  async eventDocuments(
    facility: Facility,
    input: { event_id: string; page?: unknown; per_page?: unknown },
  ): Promise<Page<EventDocument> & { event: DocumentEvent }> {
    const request = parsePageRequest(input, DOCUMENT_PAGE_LIMITS);
    const event = await this.eventFor(facility, input.event_id);
    const [total, rows] = await Promise.all([
      this.repository.countForEvent(event.id),
      this.repository.pageForEvent(event.id, request.perPage, offsetOf(request)),
    ]);
    return { event, entries: rows.map(documentRowToDocument), pagination: pageMeta(total, request) };
  }

  /** Events by id, in key order, null for a missing id (DataLoader batch shape). */
  async eventsByIds(ids: readonly string[]): Promise<(DocumentEvent | null)[]> {
    const rows = await this.repository.eventsByIds(ids.map(normalizeId));
    return rows.map((row) => (row ? eventRowToEvent(row) : null));
  }

  /** Documents of each event, in key order, [] for an event without any (DataLoader batch shape). */
  async documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]> {
    const lists = await this.repository.documentsByEventIds(eventIds.map(normalizeId));
    return lists.map((rows) => rows.map(documentRowToDocument));
  }
}
