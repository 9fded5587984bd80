import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { buildItem, buildTenant } from '../support/factories';
import type { TestApp } from '../support/http';
import { cash, line, payment } from '../support/payments';

/** Generous: a busy 2-core machine may be slow, but a deadline is still a deadline. */
export const DEADLINE_MS = 20_000;

/** Waits until the condition holds, checking often, failing with `what` after the deadline. */
export async function until(what: string, condition: () => boolean, deadlineMs = DEADLINE_MS): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > deadlineMs) throw new Error(`waited ${deadlineMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const bearer = (token: string) => `Bearer ${token}`;

/** What one subscription received: results in order, and whether it ended (and how). */
export interface Received {
  results: Array<{
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  }>;
  completed: boolean;
  error: unknown;
  stop(): void;
}

function collector(): Received {
  return { results: [], completed: false, error: null, stop: () => undefined };
}

/** A graphql-ws client of the app at `base` (http://...), retrying nothing. */
export function wsClient(base: string, connectionParams: Record<string, unknown> | undefined): WsClient {
  return createWsClient({
    url: `${base.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    shouldRetry: () => false,
  });
}

/** What both libraries' clients share: subscribe with a sink, get back a function that stops it. */
interface Subscribable {
  subscribe(
    request: { query: string; variables: Record<string, unknown> },
    sink: { next(value: unknown): void; error(error: unknown): void; complete(): void },
  ): () => void;
}

/** Subscribes with either library's client and collects what arrives. */
function collect(client: Subscribable, query: string, variables: Record<string, unknown>): Received {
  const received = collector();
  received.stop = client.subscribe(
    { query, variables },
    {
      next: (result) => received.results.push(result as Received['results'][number]),
      error: (error) => {
        received.error = error;
        received.completed = true;
      },
      complete: () => {
        received.completed = true;
      },
    },
  );
  return received;
}

export function subscribeWs(
  client: WsClient,
  query: string,
  variables: Record<string, unknown> = {},
): Received {
  return collect(client, query, variables);
}

/** A graphql-sse client (distinct connections) of the app at `base`. */
export function sseClient(base: string, token: string): SseClient {
  return createSseClient({
    url: `${base}/graphql`,
    headers: { authorization: bearer(token) },
    retryAttempts: 0,
  });
}

export function subscribeSse(
  client: SseClient,
  query: string,
  variables: Record<string, unknown> = {},
): Received {
  return collect(client, query, variables);
}

export const ACTIVITY = `subscription Activity($facilityId: UUID!, $types: [FacilityActivityType!], $since: String) {
  facilityActivity(facilityId: $facilityId, types: $types, since: $since) {
    __typename
    ... on LiveEvent { cursor type facilityId }
    ... on PaymentSucceeded { payment { id amount facility { id } } }
    ... on NoteCreated { noteEvent { id notes { note } } }
  }
}`;

/** A facility's retail item and a tenant to pay for it with cash. */
export async function loadShop(t: TestApp, facilityId: string) {
  const tenant = buildTenant({ facility_id: facilityId });
  const item = buildItem({ facility_id: facilityId, description: 'Disc lock', quantity: 1000 });
  await t.load({ tenants: [tenant], invoiceable_items: [item] });
  return { tenant, item };
}

/** Pays for one item over REST, with the given bearer token; answers the payment's id. */
export async function payOverRest(
  app: FastifyInstance,
  token: string,
  facilityId: string,
  shop: { tenant: { id: string }; item: { id: string } },
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/${facilityId}/invoiceable_items/retail_payment`,
    headers: { authorization: bearer(token), 'content-type': 'application/json' },
    payload: JSON.stringify(payment([line(shop.item, 1)], cash('100'), { tenant_id: shop.tenant.id })),
  });
  if (res.statusCode !== 200) throw new Error(`payment answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { successful_payment_event: { id: string } }).successful_payment_event.id;
}

/** The payments a subscription received, by id, in order. */
export function paymentIds(received: Received): string[] {
  return received.results
    .map((result) => (result.data?.facilityActivity as { payment?: { id: string } } | undefined)?.payment?.id)
    .filter((id): id is string => typeof id === 'string');
}

/** One event of a raw event stream. */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * A raw GraphQL-over-SSE request (what a browser's reconnect sends: the `Last-Event-ID` header),
 * its events parsed as they come; `close()` drops the connection.
 */
export function rawEventStream(
  base: string,
  token: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): { events: StreamEvent[]; status: Promise<number>; ended: () => boolean; close(): void } {
  const events: StreamEvent[] = [];
  const controller = new AbortController();
  let ended = false;
  let resolveStatus: (status: number) => void = () => undefined;
  const status = new Promise<number>((resolve) => (resolveStatus = resolve));
  void (async () => {
    try {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          authorization: bearer(token),
          ...headers,
        },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      resolveStatus(res.status);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = { id: null, event: 'message', data: '' };
          let hasField = false;
          for (const fieldLine of block.split('\n')) {
            if (fieldLine.startsWith(':') || fieldLine === '') continue;
            const colon = fieldLine.indexOf(':');
            const name = fieldLine.slice(0, colon);
            const value = fieldLine.slice(colon + 1).replace(/^ /, '');
            hasField = true;
            if (name === 'id') event.id = value;
            else if (name === 'event') event.event = value;
            else if (name === 'data') event.data += value;
          }
          if (hasField) events.push(event);
        }
      }
    } catch {
      // Aborted by close(), or the connection ended.
    } finally {
      ended = true;
      resolveStatus(0);
    }
  })();
  return { events, status, ended: () => ended, close: () => controller.abort() };
}

/** The `next` events' payloads of a raw stream. */
export function nextPayloads(events: StreamEvent[]): Array<Record<string, unknown>> {
  return events.filter((e) => e.event === 'next').map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

/** The codes of the errors a subscription ended with (graphql-ws sends them as an `error` message). */
export function codesOf(received: {
  results: Array<{ errors?: Array<{ extensions?: Record<string, unknown> }> }>;
  error: unknown;
}): unknown[] {
  const fromResults = received.results.flatMap((result) =>
    (result.errors ?? []).map((e) => e.extensions?.code),
  );
  const fromError = Array.isArray(received.error)
    ? (received.error as Array<{ extensions?: Record<string, unknown> }>).map((e) => e.extensions?.code)
    : [];
  return [...fromResults, ...fromError];
}
