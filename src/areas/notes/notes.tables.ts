import { nullable, text } from '../../kernel/columns';

/** The tables of note events and their notes (composed into the store's Database). */
export const noteEvents = {
  id: text,
  facility_id: text,
  tenant_id: nullable(text),
  unit_id: nullable(text),
  ledger_id: nullable(text),
  /** The user who wrote it, as the client gave it. */
  user_id: nullable(text),
  created_by_client_id: text,
  created_at: text,
};

export const notes = {
  id: text,
  note_event_id: text,
  note: text,
  /** Stored UTC instant; transports write it in the facility's zone. */
  created_at: text,
};
