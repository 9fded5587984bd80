import { decimal, nullable, text } from '../kernel/columns';

/** Every event a change reported, for GraphQL subscriptions and their replay (kept for a window). */
export const liveEvents = {
  /**
   * Its number in the journal: the cursor a client resumes after (`Last-Event-ID`, `since`). A
   * bigserial on PostgreSQL, which hands it back as text, so it is read with Number.
   */
  seq: decimal,
  facility_id: text,
  /** The event (e-sign, documents, payments) it is about; for a webhook delivery, the endpoint. */
  event_id: nullable(text),
  /** A webhook event type (`payment.succeeded`, ...) or `webhook.delivery`. */
  type: text,
  occurred_at: text,
  /** The webhook body (`{"type","timestamp","data"}`); for a webhook delivery, the message's id. */
  body: text,
};
