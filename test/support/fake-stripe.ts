import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A form-encoded body as Stripe reads it: `a[b][c]=v` nests, `a[0]=v` is a list element. */
export type FormValue = string | { [key: string]: FormValue };

export function parseForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const parts = name.split('[').map((part) => part.replace(/\]$/, ''));
    let node = root as Record<string, FormValue>;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, FormValue>;
    });
  }
  return root;
}

/** A PaymentIntent as the fake keeps it (the fields the service reads, as Stripe documents them). */
export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'succeeded' | 'requires_payment_method' | 'canceled';
  created: number;
  customer: string | null;
  payment_method: string | null;
  metadata: Record<string, string>;
  last_payment_error: { code: string; decline_code?: string; message: string } | null;
  /** Not Stripe's: whether a refund was made for it (Stripe keeps it `succeeded` with a refund). */
  refunded: boolean;
  /** Not Stripe's: the Idempotency-Key it was created under. */
  idempotencyKey: string | null;
}

/** How the fake answers the next PaymentIntent creation. */
type Next = 'hold' | 'garbage' | 'silent';

/** Test card numbers, as Stripe's testing page lists them, and the decline each gives. */
const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  '4000000000000002': {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  '4000000000009995': {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A fake of the Stripe API endpoints the Stripe gateway uses, on loopback: POST /v1/customers,
 * POST /v1/payment_intents (create and confirm), GET /v1/payment_intents (list by `created[gte]`),
 * POST /v1/payment_intents/:id/cancel and POST /v1/refunds. Bodies are form-encoded, answers JSON,
 * errors in Stripe's `{ error: { type, code, ... } }` shape; an Idempotency-Key seen before
 * answers the first answer again. It counts the intents created, and on request holds the next
 * creation's answer (the intent already made), answers it with garbage, or never answers it.
 */
export class FakeStripe {
  readonly intents: FakeIntent[] = [];
  readonly refunds: Array<{ id: string; payment_intent: string }> = [];
  /** Every request body as received (to show where card numbers went). */
  readonly bodies: string[] = [];
  /** Every request: method, path and Idempotency-Key. */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null }> = [];
  url = '';
  private readonly server: http.Server;
  private readonly answered = new Map<string, { status: number; body: string }>();
  private readonly next: Next[] = [];
  private held: Array<() => void> = [];
  private heldWaiters: Array<() => void> = [];

  constructor(private readonly secretKey = 'sk_test_fake') {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.releaseHeld();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next PaymentIntent creation is made, then its answer waits for `releaseHeld`. */
  holdNext(): void {
    this.next.push('hold');
  }

  /** The next creation is made and answered with a body that is not JSON. */
  garbageNext(): void {
    this.next.push('garbage');
  }

  /** The next creation is made and never answered (until `releaseHeld`, which closes it). */
  silentNext(): void {
    this.next.push('silent');
  }

  /** Resolves once a creation is being held (made, its answer not sent). */
  whenHolding(): Promise<void> {
    if (this.held.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.heldWaiters.push(resolve));
  }

  /** Whether an answer is still held back. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  /** Intents that took money and kept it: succeeded, not refunded. */
  captured(): FakeIntent[] {
    return this.intents.filter((intent) => intent.status === 'succeeded' && !intent.refunded);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.bodies.push(body);
    this.requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key });
    const send = (status: number, value: unknown) => {
      const text = JSON.stringify(value);
      if (key && req.method === 'POST') this.answered.set(`${url.pathname} ${key}`, { status, body: text });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') }).end(text);
    };
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
      );
      return;
    }
    const earlier = key && req.method === 'POST' ? this.answered.get(`${url.pathname} ${key}`) : undefined;
    if (earlier) {
      res.writeHead(earlier.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      res.end(earlier.body);
      return;
    }
    const form = parseForm(body);
    const path = url.pathname;
    if (req.method === 'POST' && path === '/v1/customers') {
      return send(200, {
        id: id('cus'),
        object: 'customer',
        name: form.name ?? null,
        metadata: form.metadata ?? {},
      });
    }
    if (req.method === 'POST' && path === '/v1/payment_intents') return this.create(form, key, res, send);
    if (req.method === 'GET' && path === '/v1/payment_intents') {
      const since = Number(url.searchParams.get('created[gte]') ?? 0);
      const data = this.intents.filter((intent) => intent.created >= since).map(shown);
      return send(200, { object: 'list', data, has_more: false, url: '/v1/payment_intents' });
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && cancel) {
      const intent = this.intents.find((i) => i.id === cancel[1]);
      if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
      if (intent.status === 'succeeded') {
        return send(400, {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: 'succeeded',
          },
        });
      }
      intent.status = 'canceled';
      return send(200, shown(intent));
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      const intent = this.intents.find((i) => i.id === form.payment_intent);
      if (!intent) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
      intent.refunded = true;
      const refund = { id: id('re'), payment_intent: intent.id };
      this.refunds.push(refund);
      return send(200, { ...refund, object: 'refund', amount: intent.amount, status: 'succeeded' });
    }
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
    });
  }

  private create(
    form: Record<string, FormValue>,
    key: string | null,
    res: http.ServerResponse,
    send: (status: number, value: unknown) => void,
  ): void {
    const data = form.payment_method_data as Record<string, Record<string, string>> | undefined;
    const decline = data?.card ? DECLINES[data.card.number] : undefined;
    const intent: FakeIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount: Number(form.amount),
      currency: String(form.currency),
      status: decline ? 'requires_payment_method' : 'succeeded',
      created: Math.floor(Date.now() / 1000),
      customer: typeof form.customer === 'string' ? form.customer : null,
      payment_method: typeof form.payment_method === 'string' ? form.payment_method : id('pm'),
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      last_payment_error: decline ?? null,
      refunded: false,
      idempotencyKey: key,
    };
    this.intents.push(intent);
    const answer = () =>
      decline
        ? send(402, { error: { type: 'card_error', ...decline, payment_intent: shown(intent) } })
        : send(200, shown(intent));
    const next = this.next.shift();
    if (next === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>upstream error</html>');
      return;
    }
    if (next === 'hold' || next === 'silent') {
      this.held.push(next === 'hold' ? answer : () => res.destroy());
      for (const waiter of this.heldWaiters.splice(0)) waiter();
      return;
    }
    answer();
  }
}

function shown(intent: FakeIntent): Omit<FakeIntent, 'refunded' | 'idempotencyKey'> {
  const { refunded: _refunded, idempotencyKey: _key, ...rest } = intent;
  return rest;
}
