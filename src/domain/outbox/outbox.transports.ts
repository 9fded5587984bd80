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

/** Delivers email; rejects when the message was not accepted (it is then retried). */
export interface EmailTransport {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** Delivers text messages; rejects when the provider did not accept the message. */
export interface SmsTransport {
  send(sms: OutgoingSms): Promise<void>;
  close(): void;
}

/** The transports a worker has; a channel without one keeps its messages pending. */
export interface OutboxTransports {
  email: EmailTransport | null;
  sms: SmsTransport | null;
}
