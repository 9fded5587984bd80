import WebSocket from 'ws';
import { listenOnLoopback } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import {
  ACTIVITY,
  bearer,
  codesOf,
  loadShop,
  payOverRest,
  paymentIds,
  subscribeWs,
  until,
  wsClient,
} from './live-support';

/** A raw graphql-transport-ws connection: what it was sent, and how it was closed. */
function rawSocket(base: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: Array<Record<string, unknown>> = [];
  const closed: { code: number | null; reason: string } = { code: null, reason: '' };
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
  socket.on('close', (code, reason) => {
    closed.code = code;
    closed.reason = String(reason);
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages, closed, opened };
}

describe('Bad input to subscriptions', () => {
  let t: TestApp;
  let base: string;
  let shop: Awaited<ReturnType<typeof loadShop>>;

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { LIVE_SUBSCRIPTIONS_PER_CONNECTION: '2', LIVE_SUBSCRIPTIONS_PER_CLIENT: '3' },
    });
    base = await listenOnLoopback(t.app);
    shop = await loadShop(t, t.world.facility.id);
  });
  afterAll(() => t.close());

  it.each([
    ['no credentials', {}],
    ['a wrong bearer token', { type: 'connection_init', payload: { Authorization: 'Bearer not-a-token' } }],
    ['an Authorization that is not a string', { type: 'connection_init', payload: { Authorization: 42 } }],
  ])('closes a connection_init with %s: 4403 and a reason, nothing subscribed', async (_name, init) => {
    const raw = rawSocket(base);
    await raw.opened;
    raw.socket.send(JSON.stringify('type' in init ? init : { type: 'connection_init' }));
    await until('the close', () => raw.closed.code !== null);
    expect(raw.closed.code).toBe(4403);
    expect(raw.closed.reason).toMatch(/^Forbidden: /);
    expect(raw.messages).toEqual([]);
  });

  it('closes a malformed connection_init with 4400', async () => {
    const raw = rawSocket(base);
    await raw.opened;
    raw.socket.send(JSON.stringify({ type: 'connection_init', payload: 'Bearer x' }));
    await until('the close', () => raw.closed.code !== null);
    expect(raw.closed.code).toBe(4400);
    expect(t.services.live.subscriberCount).toBe(0);
  });

  it("refuses bad arguments, queries and limits per subscription, leaving the connection's others running", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const kept = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the first subscription', () => t.services.live.subscriberCount === 1);

      // One at a time: each holds a place on the connection until it is refused.
      const refusal = async (query: string, variables: Record<string, unknown> = {}) => {
        const received = subscribeWs(client, query, variables);
        await until('the refusal', () => received.completed);
        return codesOf(received);
      };
      const facilityId = t.world.facility.id;
      expect(await refusal(ACTIVITY, { facilityId, since: 'yesterday' })).toEqual(['BAD_USER_INPUT']);
      expect(await refusal(ACTIVITY, { facilityId, types: ['TEA_BREAK'] })).toEqual(['BAD_USER_INPUT']);
      expect(await refusal(ACTIVITY, { facilityId: 'not-a-uuid' })).toEqual(['BAD_USER_INPUT']);
      expect(await refusal(ACTIVITY, {})).toEqual(['BAD_USER_INPUT']);
      expect(await refusal('{ __typename }')).toEqual(['BAD_REQUEST']);
      expect(new Set(await refusal('subscription { facilityActivity { nope } }'))).toEqual(
        new Set(['GRAPHQL_VALIDATION_FAILED']),
      );
      expect(await refusal('subscription {')).toEqual(['GRAPHQL_PARSE_FAILED']);

      // A second subscription fits this connection (2); a third does not.
      const second = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the second subscription', () => t.services.live.subscriberCount === 2);
      const third = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the refusal over the connection limit', () => third.completed);
      expect(codesOf(third)).toEqual(['RATE_LIMITED']);
      expect(JSON.stringify(third.error)).toContain('LIVE_SUBSCRIPTIONS_PER_CONNECTION');

      const paid = await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      await until(
        'the payment on both kept subscriptions',
        () => paymentIds(kept).includes(paid) && paymentIds(second).includes(paid),
      );
      expect(kept.completed).toBe(false);
    } finally {
      await client.dispose();
    }
    await until('the connection to let go', () => t.services.live.subscriberCount === 0);
  });

  it('refuses a client over its limit across connections (RATE_LIMITED), and takes it again once one ends', async () => {
    const clients = [0, 1].map(() => wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) }));
    try {
      const held = [
        subscribeWs(clients[0], ACTIVITY, { facilityId: t.world.facility.id }),
        subscribeWs(clients[0], ACTIVITY, { facilityId: t.world.facility.id }),
        subscribeWs(clients[1], ACTIVITY, { facilityId: t.world.facility.id }),
      ];
      await until('three subscriptions', () => t.services.live.subscriberCount === 3);
      const over = subscribeWs(clients[1], ACTIVITY, { facilityId: t.world.facility.id });
      await until('the refusal', () => over.completed);
      expect(codesOf(over)).toEqual(['RATE_LIMITED']);
      expect(JSON.stringify(over.error)).toContain('LIVE_SUBSCRIPTIONS_PER_CLIENT');

      const sse = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          authorization: bearer(t.world.client.bearer_token!),
        },
        body: JSON.stringify({ query: ACTIVITY, variables: { facilityId: t.world.facility.id } }),
      });
      expect(sse.status).toBe(429);
      expect(
        ((await sse.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code,
      ).toBe('RATE_LIMITED');

      held[0].stop();
      await until('one to end', () => t.services.live.subscriberCount === 2);
      const again = subscribeWs(clients[1], ACTIVITY, { facilityId: t.world.facility.id });
      await until('the new one', () => t.services.live.subscriberCount === 3);
      expect(again.completed).toBe(false);
    } finally {
      for (const client of clients) await client.dispose();
    }
  });

  it('answers an SSE request without or with wrong credentials 401, streaming nothing', async () => {
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ query: ACTIVITY, variables: { facilityId: t.world.facility.id } }),
      });
      expect(res.status).toBe(401);
      expect(
        ((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code,
      ).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a subscription sent as a plain POST, naming the transports that carry it', async () => {
    const res = await t.postJson('/graphql', {
      query: ACTIVITY,
      variables: { facilityId: t.world.facility.id },
    });
    expect(res.statusCode).toBe(400);
    const [error] = (res.json() as { errors: Array<{ message: string; extensions: { code: string } }> })
      .errors;
    expect(error.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(error.message).toMatch(/graphql-ws .* or SSE/);
  });

  it('refuses a WebSocket upgrade on any other path', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/anything`, 'graphql-transport-ws');
    const failure = await new Promise<string>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      socket.once('error', (error) => resolve(error.message));
    });
    expect(failure).toMatch(/404/);
  });
});
