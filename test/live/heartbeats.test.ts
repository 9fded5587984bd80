import WebSocket from 'ws';
import { listenOnLoopback } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import { ACTIVITY, bearer, until } from './live-support';

describe('WebSocket heartbeats', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { LIVE_HEARTBEAT_MS: '1000' } });
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  /** A graphql-transport-ws connection with one subscription; `answersPings` false plays a dead peer. */
  async function subscribed(answersPings: boolean) {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
      autoPong: answersPings,
    });
    const closed = { code: null as number | null };
    let pings = 0;
    socket.on('ping', () => (pings += 1));
    socket.on('close', (code) => (closed.code = code));
    await new Promise((resolve) => socket.once('open', resolve));
    const acknowledged = new Promise((resolve) =>
      socket.on('message', (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') resolve(null);
      }),
    );
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { Authorization: bearer(t.world.client.bearer_token!) },
      }),
    );
    await acknowledged;
    socket.send(
      JSON.stringify({
        id: '1',
        type: 'subscribe',
        payload: { query: ACTIVITY, variables: { facilityId: t.world.facility.id } },
      }),
    );
    return { socket, closed, pings: () => pings };
  }

  it('closes a connection that stops answering pings, ending its subscriptions, and keeps one that answers', async () => {
    const alive = await subscribed(true);
    const dead = await subscribed(false);
    await until('both subscriptions', () => t.services.live.subscriberCount === 2);
    await until('the silent peer to be dropped', () => dead.closed.code !== null);
    expect(dead.pings()).toBeGreaterThanOrEqual(1);
    await until('its subscription to end', () => t.services.live.subscriberCount === 1);
    // The peer that answered was pinged as often, and is still there.
    await until('the live peer to be pinged twice', () => alive.pings() >= 2);
    expect(alive.closed.code).toBeNull();
    alive.socket.close();
    await until('all gone', () => t.services.live.subscriberCount === 0);
  });
});
