import { nullable, text, type TablesOf } from '../../kernel/columns';

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

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const notesTables = { note_events: noteEvents, notes };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof notesTables> {}
}
