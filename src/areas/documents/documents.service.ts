import type { Clock } from '../../kernel/clock';
import { DomainError, type Path } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../../kernel/ids';
import { offsetOf, pageMeta, parsePageRequest, type Page, type PageInput } from '../../kernel/pagination';
import type { DocumentsRepository } from './documents.ports';
import type { DocumentEvent, EventDocument } from './documents.types';

/** Event document lists: per_page 100 by default and at most (DESIGN 6, Documents). */
export const DOCUMENT_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

export class DocumentsService {
  constructor(
    private readonly repository: DocumentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The facility's move-in, move-out or successful payment event (404/9 naming the parameter
   * for anything else, including an event of another facility).
   */
  async eventFor(facility: Facility, eventId: string, parameter: Path = ['eventId']): Promise<DocumentEvent> {
    if (!isUuid(eventId)) throw DomainError.notFound(parameter, 'event', eventId);
    const event = await this.repository.findFacilityEvent(facility.id, normalizeId(eventId));
    if (!event) throw DomainError.notFound(parameter, 'event', eventId);
    return event;
  }

  /** One page of the event's documents, sorted by created_at then id. */
  async eventDocuments(
    facility: Facility,
    query: PageInput & { eventId: string },
  ): Promise<Page<EventDocument> & { event: DocumentEvent }> {
    const request = parsePageRequest(query, DOCUMENT_PAGE_LIMITS);
    const event = await this.eventFor(facility, query.eventId);
    const [total, entries] = await Promise.all([
      this.repository.countForEvent(event.id),
      this.repository.pageForEvent(event.id, request.perPage, offsetOf(request)),
    ]);
    return { event, entries, pagination: pageMeta(total, request) };
  }

  /** Documents by id, in key order, null for a missing id (DataLoader batch shape; not yet checked). */
  documentsByIds(ids: readonly string[]): Promise<(EventDocument | null)[]> {
    return this.repository.documentsByIds(ids.map(normalizeId));
  }

  /** Events by id, in key order, null for a missing id (DataLoader batch shape). */
  eventsByIds(ids: readonly string[]): Promise<(DocumentEvent | null)[]> {
    return this.repository.eventsByIds(ids.map(normalizeId));
  }

  /** Documents of each event, in key order, [] for an event without any (DataLoader batch shape). */
  documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]> {
    return this.repository.documentsByEventIds(eventIds.map(normalizeId));
  }
}
