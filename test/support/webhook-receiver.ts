import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver got it: the raw body and the Standard Webhooks headers. */
export interface ReceivedWebhook {
  id: string;
  timestamp: number;
  signature: string;
  headers: IncomingHttpHeaders;
  path: string;
  body: string;
  /** When it arrived by the service's clock (ms), for checking the timestamp as a receiver would. */
  receivedAt: number;
}

/**
 * What the receiver does with the n-th request (0-based): answer with a status (and body or
 * headers), `hold` it unanswered until `release()` or close, or `stream` a 200 whose body never ends.
 */
export type ReceiverAnswer =
  { status: number; body?: string; headers?: Record<string, string> } | 'hold' | 'stream';

export interface TestReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived (the test's own timeout bounds it). */
  waitFor(count: number): Promise<void>;
  /** Answers every held request with 200. */
  release(): void;
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port that records every webhook POSTed to it. */
export async function startReceiver(
  answer: (index: number, request: ReceivedWebhook) => ReceiverAnswer = () => ({ status: 204 }),
  now: () => number = Date.now,
): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const held: ServerResponse[] = [];
  const streams = new Set<NodeJS.Timeout>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const delivery: ReceivedWebhook = {
        id: header('webhook-id'),
        timestamp: Number(header('webhook-timestamp')),
        signature: header('webhook-signature'),
        headers: request.headers,
        path: request.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: now(),
      };
      const index = received.length;
      received.push(delivery);
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      const reply = answer(index, delivery);
      if (reply === 'hold') {
        held.push(response);
        return;
      }
      if (reply === 'stream') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => response.write('x'.repeat(16 * 1024)), 5);
        streams.add(timer);
        response.on('close', () => {
          clearInterval(timer);
          streams.delete(timer);
        });
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    release: () => {
      for (const response of held.splice(0)) response.writeHead(200).end('ok');
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of streams) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Verifies a delivery with the reference `standardwebhooks` library, as a receiver would at the
 * moment it arrived (the library checks the timestamp against its clock, which is pinned to the
 * service's for the call); answers the parsed body, or throws when no signature matches.
 */
export function verifyDelivery(secret: string, delivery: ReceivedWebhook): unknown {
  const realNow = Date.now;
  Date.now = () => delivery.receivedAt;
  try {
    return new Webhook(secret).verify(delivery.body, {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(delivery.timestamp),
      'webhook-signature': delivery.signature,
    });
  } finally {
    Date.now = realNow;
  }
}
