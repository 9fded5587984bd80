import type { Path } from '../../kernel/errors';
import type { RenderedDocument } from './pdf.types';
import type { DomainEvent } from '../../kernel/domain-events';
import type { Facility } from '../facilities/facilities.types';
import type {
  DocumentEvent,
  DocumentHappening,
  DocumentSigningContext,
  EventDocument,
  EventType,
} from './documents.types';
import type { Slice, SliceRequest } from '../../kernel/connections';

/** A document with its template body and what its PDF fills in. */
export interface DocumentWithContext extends EventDocument {
  body: string;
  /** When its event happened (stored UTC instant). */
  eventCreatedAt: string;
  tenantFirstName: string | null;
  tenantLastName: string | null;
  unitName: string | null;
}

/** Where events and their documents are read from; lists come in key order. */
export interface DocumentsRepository {
  /** The facility's event with this id, if it is of a type that has documents. */
  findFacilityEvent(facilityId: string, eventId: string): Promise<DocumentEvent | undefined>;
  countForEvent(eventId: string): Promise<number>;
  /** One page of the event's documents, by created_at then id. */
  pageForEvent(eventId: string, limit: number, offset: number): Promise<EventDocument[]>;
  /** Events by id, null for a missing id. */
  eventsByIds(ids: readonly string[]): Promise<(DocumentEvent | null)[]>;
  /** Documents of each event ([] for none), by created_at then id. */
  documentsByIds(ids: readonly string[]): Promise<(EventDocument | null)[]>;
  documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]>;
  /**
   * The facility's document with its body, its event's date, and the tenant and unit of the event's
   * ledger (a payment without a ledger names its tenant itself).
   */
  findDocumentWithContext(facilityId: string, documentId: string): Promise<DocumentWithContext | undefined>;
}

/** Which of a facility's events a list holds: of some types, and (when `ids` is given) only those. */
export interface EventFilter {
  types: readonly EventType[];
  ids?: readonly string[];
}

/** A facility's events, optionally of some types, page by page. */
export interface EventsRepository {
  count(facilityId: string, filter: EventFilter): Promise<number>;
  /** One page, by created_at then id. */
  page(facilityId: string, filter: EventFilter, limit: number, offset: number): Promise<DocumentEvent[]>;
  /** A slice from a position (created_at, then id), each event with its position, and how many match. */
  slice(facilityId: string, filter: EventFilter, slice: SliceRequest): Promise<Slice<DocumentEvent>>;
}

/** The events of documents viewed or signed through an e-sign link (built by `documents.events.ts`). */
export interface DocumentEventBuilders {
  /** One event per document: `document.viewed` or `document.signed`, with the link it came through. */
  aboutDocuments(
    facility: Facility,
    link: DocumentSigningContext,
    happenings: readonly DocumentHappening[],
  ): Promise<DomainEvent[]>;
}
/** The documents' events, and the announcement after commit. */
export type DocumentEvents = DocumentEventBuilders & { announce(): void };

/** What the other areas read of the facilities' events and their documents (`DocumentsService` implements it). */
export interface DocumentReads {
  /** The facility's event (404/9 when it is not). */
  eventFor(facility: Facility, eventId: string, parameter?: Path): Promise<DocumentEvent>;
  /** Events by id, in key order, null for a missing one (DataLoader batch shape). */
  eventsByIds(ids: readonly string[]): Promise<(DocumentEvent | null)[]>;
  /** Documents of each event, in key order (DataLoader batch shape). */
  documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]>;
}

/** An event document's PDF as it was made (`DocumentPdfsService` implements it). */
export interface OriginalDocuments {
  originalDocument(facility: Facility, documentId: string, parameter?: Path): Promise<RenderedDocument>;
}
