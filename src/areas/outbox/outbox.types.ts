import type { DeliveryChannel, OutboxChannel, outboxMessages, OutboxStatus } from './outbox.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type { OutboxChannel, DeliveryChannel, OutboxStatus };

export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sending', 'sent', 'failed'];

/** A document a message offers, with the address it is downloaded from. */
export interface OutboxDocument {
  id: string;
  description: string;
  url: string;
}

/**
 * What a message says, fixed when it is queued so that every attempt sends the same thing.
 * Email uses subject, text and html; SMS uses text.
 */
export interface OutboxContent {
  kind: 'esign_documents';
  facility: { id: string; name: string };
  eventId: string | null;
  documents: OutboxDocument[];
  subject: string;
  text: string;
  html: string | null;
  /**
   * Values written in the text that only the recipient may know (a signing link's token): they
   * stay in the stored message until it is sent or has failed for good, then are removed.
   */
  secrets?: string[];
}

/**
 * What a webhook delivery sends: the event's type and its body, fixed when the event is written so
 * that every attempt (and a replay) sends the same bytes. The endpoint is the message's recipient.
 */
export interface OutboxWebhook {
  kind: 'webhook';
  type: string;
  body: string;
}

/**
 * A message in the durable outbox and its delivery state, read off its table (`recipient`: an email
 * address, a phone number in E.164 form, or the endpoint's id; `attempts`: delivery attempts
 * started so far; `nextAttemptAt`: stored UTC instant of the next try; `responseCode`: the HTTP
 * status of the last answer to a webhook delivery), with its stored payload read.
 */
export type OutboxMessage = RecordOfTable<typeof outboxMessages, 'payload'> & {
  /** Email and SMS: what the message says; null when the stored payload cannot be read (it is then never sent) and for webhooks. */
  content: OutboxContent | null;
  /** Webhooks: the event delivered; null or absent for other channels and when unreadable. */
  webhook?: OutboxWebhook | null;
};

/** One message to queue. */
export interface NewOutboxMessage {
  channel: OutboxChannel;
  recipient: string;
  content: OutboxContent;
}
