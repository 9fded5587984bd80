import WebSocket from 'ws';
import { buildClient } from '../support/factories';
import { listenOnLoopback } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import {
  ACTIVITY,
  bearer,
  codesOf,
  loadShop,
  nextPayloads,
  payOverRest,
  paymentIds,
  rawEventStream,
  subscribeWs,
  until,
  wsClient,
} from './live-support';

/** A graphql-transport-ws connection by hand: acknowledged, or closed (and how). */
function rawConnection(base: string, token: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const state = { acknowledged: false, code: null as number | null, reason: '' };
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: bearer(token) } })),
  );
  socket.on('message', (data) => {
    if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') state.acknowledged = true;
  });
  socket.on('close', (code, reason) => {
    state.code = code;
    state.reason = String(reason);
  });
  socket.on('error', () => undefined);
  return { socket, state };
}

describe('Subscriptions grouped by what they compute', () => {
  let t: TestApp;
  let base: string;
  let shop: Awaited<ReturnType<typeof loadShop>>;
  /** A second client application of the same company. */
  const sibling = { bearer_token: '' };

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { LIVE_CONNECTIONS_PER_CLIENT: '4' } });
    base = await listenOnLoopback(t.app);
    shop = await loadShop(t, t.world.facility.id);
    const client = buildClient({ company_id: t.world.company.id, name: 'Back Office' });
    await t.load({ client_applications: [client] });
    sibling.bearer_token = client.bearer_token!;
  });
  afterAll(() => t.close());

  const token = () => t.world.client.bearer_token!;
  const variables = () => ({ facilityId: t.world.facility.id });

  it('executes an event once for every subscriber of the same document, variables and client, over both transports, and sends them the same result', async () => {
    const clients = [
      wsClient(base, { Authorization: bearer(token()) }),
      wsClient(base, { Authorization: bearer(token()) }),
    ];
    const stream = rawEventStream(base, token(), { query: ACTIVITY, variables: variables() });
    try {
      const received = clients.map((client) => subscribeWs(client, ACTIVITY, variables()));
      await until('three subscriptions', () => t.services.live.subscriberCount === 3);
      expect(t.services.liveGroups.groupCount).toBe(1);
      const before = t.services.liveGroups.executions;

      const paid = await payOverRest(t.app, token(), t.world.facility.id, shop);
      await until(
        'the payment at every subscriber',
        () =>
          received.every((r) => paymentIds(r).includes(paid)) &&
          nextPayloads(stream.events).some((p) => JSON.stringify(p).includes(paid)),
      );
      expect(t.services.liveGroups.executions - before).toBe(1);
      const [first, second] = received.map((r) => JSON.stringify(r.results));
      expect(second).toBe(first);
      expect(JSON.stringify(nextPayloads(stream.events))).toBe(first);
      expect(stream.events.find((e) => e.event === 'next')?.id).toBe(
        (received[0].results[0].data!.facilityActivity as { cursor: string }).cursor,
      );
    } finally {
      stream.close();
      for (const client of clients) await client.dispose();
    }
    await until('every subscription to end', () => t.services.live.subscriberCount === 0);
    expect(t.services.liveGroups.groupCount).toBe(0);
  });

  it('never shares a result between two client applications, nor between two selections', async () => {
    const own = wsClient(base, { Authorization: bearer(token()) });
    const other = wsClient(base, { Authorization: bearer(sibling.bearer_token) });
    try {
      const mine = subscribeWs(own, ACTIVITY, variables());
      const theirs = subscribeWs(other, ACTIVITY, variables());
      const narrower = subscribeWs(own, ACTIVITY, { ...variables(), types: ['PAYMENT_SUCCEEDED'] });
      await until('three subscriptions', () => t.services.live.subscriberCount === 3);
      expect(t.services.liveGroups.groupCount).toBe(3);
      const before = t.services.liveGroups.executions;

      const paid = await payOverRest(t.app, token(), t.world.facility.id, shop);
      await until('the payment at each', () =>
        [mine, theirs, narrower].every((r) => paymentIds(r).includes(paid)),
      );
      expect(t.services.liveGroups.executions - before).toBe(3);
    } finally {
      await own.dispose();
      await other.dispose();
    }
    await until('every subscription to end', () => t.services.live.subscriberCount === 0);
  });

  it("keeps another company's client out of a facility's group: refused, and sent nothing", async () => {
    const own = wsClient(base, { Authorization: bearer(token()) });
    const foreign = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const mine = subscribeWs(own, ACTIVITY, variables());
      const theirs = subscribeWs(foreign, ACTIVITY, variables());
      await until('the refusal', () => theirs.completed);
      expect(codesOf(theirs)).toEqual(['FORBIDDEN']);
      await until('one subscription', () => t.services.live.subscriberCount === 1);
      const paid = await payOverRest(t.app, token(), t.world.facility.id, shop);
      await until('the payment', () => paymentIds(mine).includes(paid));
      expect(JSON.stringify(theirs.results)).not.toContain(paid);
      expect(t.services.liveGroups.groupCount).toBe(1);
    } finally {
      await own.dispose();
      await foreign.dispose();
    }
    await until('every subscription to end', () => t.services.live.subscriberCount === 0);
  });

  it('lets a member leave in the middle of a burst without stopping the others', async () => {
    const clients = [0, 1, 2].map(() => wsClient(base, { Authorization: bearer(token()) }));
    try {
      const received = clients.map((client) => subscribeWs(client, ACTIVITY, variables()));
      await until('three subscriptions', () => t.services.live.subscriberCount === 3);
      const leaving = received[1];
      const burst = Array.from({ length: 8 }, () => payOverRest(t.app, token(), t.world.facility.id, shop));
      await until('a first payment at the one leaving', () => paymentIds(leaving).length > 0);
      leaving.stop();
      const paid = await Promise.all(burst);
      await until('the burst at the two staying', () =>
        [received[0], received[2]].every((r) => paid.every((id) => paymentIds(r).includes(id))),
      );
      for (const r of [received[0], received[2]]) {
        expect(new Set(paymentIds(r)).size).toBe(paymentIds(r).length);
        expect(r.completed).toBe(false);
      }
      // Both got the same events in the same order.
      expect(paymentIds(received[2])).toEqual(paymentIds(received[0]));
      await until('the one that left to be gone', () => t.services.live.subscriberCount === 2);
      expect(t.services.liveGroups.groupCount).toBe(1);
    } finally {
      for (const client of clients) await client.dispose();
    }
    await until('every subscription to end', () => t.services.live.subscriberCount === 0);
  });

  it('caps the connections one client holds (LIVE_CONNECTIONS_PER_CLIENT): a WebSocket closed 1013, an SSE stream 429', async () => {
    const held = [0, 1, 2, 3].map(() => rawConnection(base, token()));
    const over: Array<ReturnType<typeof rawConnection>> = [];
    try {
      await until('four connections', () => held.every((c) => c.state.acknowledged));
      over.push(rawConnection(base, token()));
      await until('the one over the cap to close', () => over[0].state.code !== null);
      expect(over[0].state.code).toBe(1013);
      expect(over[0].state.reason).toMatch(/LIVE_CONNECTIONS_PER_CLIENT/);
      expect(over[0].state.acknowledged).toBe(false);

      const sse = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          authorization: bearer(token()),
        },
        body: JSON.stringify({ query: ACTIVITY, variables: variables() }),
      });
      expect(sse.status).toBe(429);
      const [error] = (
        (await sse.json()) as { errors: Array<{ message: string; extensions: { code: string } }> }
      ).errors;
      expect(error.extensions.code).toBe('RATE_LIMITED');
      expect(error.message).toMatch(/LIVE_CONNECTIONS_PER_CLIENT/);

      // Another client application has its own count.
      over.push(rawConnection(base, sibling.bearer_token));
      await until('the other client to be acknowledged', () => over[1].state.acknowledged);

      // One closed, one more is taken again.
      held[0].socket.close();
      await until('the closed one to be let go', () => held[0].state.code !== null);
      let again = rawConnection(base, token());
      over.push(again);
      // The server may hear the close a moment after the client: try until it has.
      await until('a connection again', () => {
        if (again.state.code === 1013) {
          again = rawConnection(base, token());
          over.push(again);
        }
        return again.state.acknowledged;
      });
    } finally {
      for (const c of [...held, ...over]) c.socket.terminate();
    }
  });

  it('answers refusals over SSE with the codes graphql-ws gives them', async () => {
    const client = wsClient(base, { Authorization: bearer(token()) });
    const cases: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [{ query: 'subscription { facilityActivity { nope } }' }, {}, 'GRAPHQL_VALIDATION_FAILED'],
      [{ query: 'subscription {' }, {}, 'GRAPHQL_PARSE_FAILED'],
      [{ query: ACTIVITY, variables: { facilityId: 'not-a-uuid' } }, {}, 'BAD_USER_INPUT'],
      [{ query: ACTIVITY, variables: { ...variables(), since: 'yesterday' } }, {}, 'BAD_USER_INPUT'],
      [{ query: ACTIVITY, variables: variables() }, { 'last-event-id': 'yesterday' }, 'BAD_USER_INPUT'],
      [{ query: '{ __typename }' }, {}, 'BAD_REQUEST'],
      [{ query: ACTIVITY, variables: { facilityId: t.world.otherFacility.id } }, {}, 'FORBIDDEN'],
      [
        { query: ACTIVITY, variables: { facilityId: '00000000-0000-4000-8000-000000000000' } },
        {},
        'NOT_FOUND',
      ],
    ];
    try {
      for (const [body, headers, code] of cases) {
        const stream = rawEventStream(base, token(), body, headers);
        await until('the stream to end', () => stream.ended());
        expect(await stream.status).toBe(200);
        expect(stream.events.map((e) => e.event)).toEqual(['next', 'complete']);
        const sse = (nextPayloads(stream.events)[0].errors as Array<{ extensions: { code: string } }>).map(
          (e) => e.extensions.code,
        );
        expect(new Set(sse)).toEqual(new Set([code]));
        // Last-Event-ID is SSE's own; the rest go over graphql-ws too, refused alike.
        if (Object.keys(headers).length > 0) continue;
        const ws = subscribeWs(client, String(body.query), (body.variables ?? {}) as Record<string, unknown>);
        await until('the refusal over graphql-ws', () => ws.completed);
        expect(new Set(codesOf(ws))).toEqual(new Set(sse));
      }
    } finally {
      await client.dispose();
    }
    expect(t.services.live.subscriberCount).toBe(0);
  });
});
