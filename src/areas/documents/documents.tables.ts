import { flag, nullable, text, textOf } from '../../kernel/columns';

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
