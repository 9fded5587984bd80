import { createTransport } from 'nodemailer';
import type { EmailTransport, OutgoingEmail } from '../../areas/outbox/transports.ports';
import { withDeadline } from '../../kernel/deadline';

export interface SmtpTransportOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`, as nodemailer reads it. */
  url: string;
  /** The From address: `Name <address>` or a bare address. */
  from: string;
  /** The Reply-To address, when replies are read somewhere. */
  replyTo?: string | null;
  /** Limit for connecting, the greeting and each silence on the socket; also bounds a whole send. */
  timeoutMs: number;
}

/** The domain of the From address, for Message-IDs; `localhost` when it has none. */
export function messageIdDomain(from: string): string {
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim();
  return address.includes('@') && /^[A-Za-z0-9.-]+$/.test(domain) ? domain.toLowerCase() : 'localhost';
}

/** The Message-ID of an outbox message: the same on every attempt, so a receiver can drop repeats. */
export function messageIdFor(outboxId: string, from: string): string {
  return `<${outboxId}.outbox@${messageIdDomain(from)}>`;
}

/** Email through an SMTP server with nodemailer; one connection per message. */
export class SmtpEmailTransport implements EmailTransport {
  private readonly mailer: ReturnType<typeof createTransport>;

  constructor(private readonly options: SmtpTransportOptions) {
    this.mailer = createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      dnsTimeout: options.timeoutMs,
    });
  }

  async send(email: OutgoingEmail, signal?: AbortSignal): Promise<void> {
    // Connect, greeting and data phases each have the timeout; the whole send gets three of them.
    await withDeadline(
      this.mailer.sendMail({
        from: this.options.from,
        replyTo: this.options.replyTo ?? undefined,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html ?? undefined,
        messageId: messageIdFor(email.outboxId, this.options.from),
        attachments: email.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      }),
      this.options.timeoutMs * 3,
      `SMTP send did not finish within ${this.options.timeoutMs * 3} ms`,
      // The outbox sends again with the same Message-ID, which receivers drop.
      signal && { signal, message: 'the delivery worker stopped' },
    );
  }

  close(): void {
    this.mailer.close();
  }
}
