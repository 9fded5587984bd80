/** The channels of messages to people (e-sign delivery). */
export type OutboxChannel = 'email' | 'sms';
/** Every channel the outbox delivers: messages to people, and webhook deliveries to endpoints. */
export type DeliveryChannel = OutboxChannel | 'webhook';
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

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

/** A message in the durable outbox and its delivery state. */
export interface OutboxMessage {
  id: string;
  facilityId: string;
  eventId: string | null;
  channel: DeliveryChannel;
  /** An email address, a phone number in E.164 form, or (webhooks) the endpoint's id. */
  recipient: string;
  /** Email and SMS: what the message says; null when the stored payload cannot be read (it is then never sent) and for webhooks. */
  content: OutboxContent | null;
  /** Webhooks: the event delivered; null or absent for other channels and when unreadable. */
  webhook?: OutboxWebhook | null;
  status: OutboxStatus;
  /** Delivery attempts started so far. */
  attempts: number;
  /** Stored UTC instant of the next try (pending messages). */
  nextAttemptAt: string;
  claimedBy: string | null;
  claimedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The HTTP status of the last answer (webhooks), if there was one. */
  responseCode?: number | null;
}

/** One message to queue. */
export interface NewOutboxMessage {
  channel: OutboxChannel;
  recipient: string;
  content: OutboxContent;
}
