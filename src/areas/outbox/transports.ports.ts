import type { OutboxMessage } from './outbox.types';

/** An email ready to hand to a transport. */
export interface OutgoingEmail {
  /** The outbox message id; the Message-ID header is derived from it, so a repeat is recognisable. */
  outboxId: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: EmailAttachment[];
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A text message ready to hand to a provider. */
export interface OutgoingSms {
  /** The outbox message id, sent as the idempotency key. */
  outboxId: string;
  /** E.164 number. */
  to: string;
  text: string;
  documents: { id: string; description: string; url: string }[];
}

/**
 * Delivers email; rejects when the message was not accepted (it is then retried), when its deadline
 * passes, or at once when `signal` aborts (the worker is stopping).
 */
export interface EmailTransport {
  send(email: OutgoingEmail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Delivers text messages; rejects when the provider did not accept the message, when its deadline
 * passes, or at once when `signal` aborts.
 */
export interface SmsTransport {
  send(sms: OutgoingSms, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Delivers webhook messages: finds the endpoint, signs and POSTs the body. Resolves with the HTTP
 * status of a 2xx answer; rejects (a `DeliveryFailure` when it knows more) otherwise, and at once
 * when `signal` aborts.
 */
export interface WebhookSender {
  send(message: OutboxMessage, signal?: AbortSignal): Promise<{ responseCode: number | null }>;
  /** The wait before the next attempt after `attempts` failed ones; null when none is left. */
  retryDelayMs(attempts: number): number | null;
  close(): void;
}

/** A failed attempt with what the receiver answered, if it answered; `final` ones are not retried. */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly responseCode: number | null = null,
    readonly final = false,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

/** The transports a worker has; a channel without one keeps its messages pending. */
export interface OutboxTransports {
  email: EmailTransport | null;
  sms: SmsTransport | null;
  /** Webhook deliveries; none (or absent) keeps them pending. */
  webhook?: WebhookSender | null;
}
