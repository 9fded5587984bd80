import type { DocumentEvent, EventType } from '../documents/documents.types';
import { nullable, text, textOf, type RecordOfTable, type Same } from '../../kernel/columns';

/** The table of a facility's events, the owners of documents (composed into the store's Database). */
export const events = {
  id: text,
  facility_id: text,
  type: textOf<EventType>(),
  ledger_id: nullable(text),
  /** Stored UTC instant. */
  created_at: text,
};

/** An event as documents know it is this table's record. */
const _eventsAreDocumentEvents: Same<RecordOfTable<typeof events>, DocumentEvent> = true;
