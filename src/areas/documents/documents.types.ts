import type { eventDocuments, events, EventType } from './documents.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type { EventType };

/** Events whose documents can be listed (contract 4.8): all three kinds. */
export const DOCUMENT_EVENT_TYPES: readonly EventType[] = [
  'move_in_unit_event',
  'move_out_unit_event',
  'successful_payment_event',
];

/** A move-in, move-out or successful payment event: the owner of event documents. */
export type DocumentEvent = RecordOfTable<typeof events>;

/** A PDF document of an event (contract 2.6), without its template body. */
export type EventDocument = RecordOfTable<typeof eventDocuments, 'body'>;

/** The e-sign link an event about a document came through. */
export interface DocumentSigningContext {
  messageId: string;
  facilityId: string;
  eventId: string;
  channel: string;
  recipient: string;
}

/** What happened to a document through its link, and when. */
export type DocumentHappening =
  | { kind: 'viewed'; documentId: string; at: string }
  | {
      kind: 'signed';
      documentId: string;
      at: string;
      signerName: string | null;
      signedSha256: string | null;
    };
