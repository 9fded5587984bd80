import type { OutgoingSms, SmsTransport } from '../../areas/outbox/transports.ports';

export interface HttpSmsTransportOptions {
  /** The provider's endpoint; it receives one JSON POST per message. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token: string | null;
  /** Limit for the whole request, answer included. */
  timeoutMs: number;
}

/** The JSON body the provider receives. */
export interface SmsWebhookBody {
  id: string;
  to: string;
  text: string;
  documents: { id: string; description: string; url: string }[];
}

/** A field of a thrown value; checked by shape, since fetch's errors may come from another realm. */
function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const name = fieldOf(error, 'name');
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `SMS provider did not answer within ${timeoutMs} ms`;
  }
  const code = fieldOf(fieldOf(error, 'cause'), 'code');
  const message = fieldOf(error, 'message');
  const detail = typeof code === 'string' ? code : typeof message === 'string' ? message : 'error';
  return `SMS provider unreachable: ${detail}`;
}

/**
 * Text messages through an HTTP provider: a JSON POST with an `Idempotency-Key` header equal to the
 * outbox message id, so a provider drops a repeat. Any 2xx answer means accepted.
 */
export class HttpSmsTransport implements SmsTransport {
  constructor(private readonly options: HttpSmsTransportOptions) {}

  async send(sms: OutgoingSms, signal?: AbortSignal): Promise<void> {
    const body: SmsWebhookBody = { id: sms.outboxId, to: sms.to, text: sms.text, documents: sms.documents };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': sms.outboxId,
    };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let answer: string;
    let status: number;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        // One deadline for the request and its answer's body; the worker's stop ends it too.
        signal: signal
          ? AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), signal])
          : AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.status;
      answer = await response.text();
    } catch (error) {
      if (signal?.aborted) throw new Error('the delivery worker stopped');
      throw new Error(describeFetchError(error, this.options.timeoutMs));
    }
    if (status < 200 || status > 299) {
      const excerpt = answer.replace(/\s+/g, ' ').trim().slice(0, 200);
      throw new Error(`SMS provider answered ${status}${excerpt ? `: ${excerpt}` : ''}`);
    }
  }

  close(): void {
    // Each send is its own request; nothing stays open.
  }
}
