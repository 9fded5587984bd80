import type { EventType } from '../documents/documents.types';
import { nullable, text, textOf } from '../../kernel/columns';

/** The table of a facility's events, the owners of documents (composed into the store's Database). */
export const events = {
  id: text,
  facility_id: text,
  type: textOf<EventType>(),
  ledger_id: nullable(text),
  /** Stored UTC instant. */
  created_at: text,
};
