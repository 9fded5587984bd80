export type OutboxChannel = 'email' | 'sms';
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

/** A message in the durable outbox and its delivery state. */
export interface OutboxMessage {
  id: string;
  facilityId: string;
  eventId: string | null;
  channel: OutboxChannel;
  /** An email address, or a phone number in E.164 form. */
  recipient: string;
  /** Null when the stored payload cannot be read (it is then never sent). */
  content: OutboxContent | null;
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
}

/** One message to queue. */
export interface NewOutboxMessage {
  channel: OutboxChannel;
  recipient: string;
  content: OutboxContent;
}
