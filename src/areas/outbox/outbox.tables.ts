import { integer, nullable, text, textOf, type TablesOf } from '../../kernel/columns';

/** The channels of messages to people (e-sign delivery). */
export type OutboxChannel = 'email' | 'sms';
/** Every channel the outbox delivers: messages to people, and webhook deliveries to endpoints. */
export type DeliveryChannel = OutboxChannel | 'webhook';
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** The durable outbox (composed into the store's Database): one row per message and its delivery. */
export const outboxMessages = {
  id: text,
  facility_id: text,
  event_id: nullable(text),
  channel: textOf<DeliveryChannel>(),
  /** An email address, a phone number, or (webhooks) the endpoint's id. */
  recipient: text,
  /** JSON: the message's content (email, SMS) or the webhook event it delivers. */
  payload: text,
  status: textOf<OutboxStatus>(),
  attempts: integer,
  next_attempt_at: text,
  claimed_by: nullable(text),
  claimed_until: nullable(text),
  last_error: nullable(text),
  created_at: text,
  sent_at: nullable(text),
  /** The HTTP status of the last answer (webhooks); null in rows written before it existed. */
  response_code: nullable(integer),
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const outboxTables = { outbox_messages: outboxMessages };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof outboxTables> {}
}
