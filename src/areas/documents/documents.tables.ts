import { flag, nullable, text, textOf, type TablesOf } from '../../kernel/columns';

/** The events that own documents. */
export type EventType = 'move_in_unit_event' | 'move_out_unit_event' | 'successful_payment_event';

/** The tables of events and their documents (composed into the store's Database). */
export const events = {
  id: text,
  facility_id: text,
  type: textOf<EventType>(),
  ledger_id: nullable(text),
  /** Stored UTC instant. */
  created_at: text,
};

export const eventDocuments = {
  id: text,
  event_id: text,
  description: text,
  type: text,
  is_relevant: flag,
  esignable: flag,
  /** Stored UTC instant; transports write it in the facility's zone. */
  created_at: text,
  /** The template its PDF fills in; only the PDF rendering reads it. */
  body: text,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const documentsTables = { events, event_documents: eventDocuments };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof documentsTables> {}
}
