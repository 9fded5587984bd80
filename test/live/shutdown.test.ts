import { listenOnLoopback } from '../support/gateway';
import { createTestApp } from '../support/http';
import { ACTIVITY, bearer, nextPayloads, rawEventStream, subscribeWs, until, wsClient } from './live-support';

describe('Shutting down with subscriptions open', () => {
  it('ends every stream with a reason and closes, rather than waiting on them', async () => {
    const t = await createTestApp('sqlite');
    const base = await listenOnLoopback(t.app);
    const body = { query: ACTIVITY, variables: { facilityId: t.world.facility.id } };
    const stream = rawEventStream(base, t.world.client.bearer_token!, body);
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    const socket = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
    try {
      await until('both subscriptions', () => t.services.live.subscriberCount === 2);
      await t.close();
      await until('the stream to end', () => stream.ended());
      expect(nextPayloads(stream.events).at(-1)?.errors).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'GONE' }) }),
      ]);
      await until('the WebSocket subscription to end', () => socket.completed);
    } finally {
      await client.dispose();
    }
  });
});
