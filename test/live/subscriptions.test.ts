import { listenOnLoopback } from '../support/gateway';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import {
  ACTIVITY,
  bearer,
  codesOf,
  loadShop,
  payOverRest,
  paymentIds,
  sseClient,
  subscribeSse,
  subscribeWs,
  until,
  wsClient,
} from './live-support';

describeEachDialect('GraphQL subscriptions on one instance', (dialect) => {
  let t: TestApp;
  let base: string;
  let shop: Awaited<ReturnType<typeof loadShop>>;
  let otherShop: Awaited<ReturnType<typeof loadShop>>;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { LIVE_SUBSCRIPTIONS_PER_CONNECTION: '3', LIVE_REPLAY_LIMIT: '3' },
    });
    base = await listenOnLoopback(t.app);
    shop = await loadShop(t, t.world.facility.id);
    otherShop = await loadShop(t, t.world.otherFacility.id);
  });
  afterAll(() => t.close());

  it('delivers a payment made over REST to a graphql-ws client, as the payment GraphQL answers', async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const received = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the subscription to start', () => t.services.live.subscriberCount === 1);
      const paid = await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      await until('the payment to arrive', () => paymentIds(received).includes(paid));
      const activity = received.results[0].data!.facilityActivity as Record<string, unknown>;
      expect(activity).toMatchObject({
        __typename: 'PaymentSucceeded',
        type: 'PAYMENT_SUCCEEDED',
        facilityId: t.world.facility.id,
        payment: { id: paid, facility: { id: t.world.facility.id } },
      });
      expect(activity.cursor).toMatch(/^\d+$/);
    } finally {
      await client.dispose();
    }
    await until('the subscription to end with its connection', () => t.services.live.subscriberCount === 0);
  });

  it('delivers a payment made over REST to a graphql-sse client', async () => {
    const client = sseClient(base, t.world.client.bearer_token!);
    try {
      const received = subscribeSse(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the subscription to start', () => t.services.live.subscriberCount === 1);
      const paid = await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      await until('the payment to arrive', () => paymentIds(received).includes(paid));
      received.stop();
    } finally {
      client.dispose();
    }
    await until('the stream to end', () => t.services.live.subscriberCount === 0);
  });

  it("never shows company B a payment of company A's facility", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const own = subscribeWs(client, ACTIVITY, { facilityId: t.world.otherFacility.id });
      const foreign = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until("B to be refused A's facility", () => foreign.completed);
      expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
      await until("B's own subscription to start", () => t.services.live.subscriberCount === 1);
      const paidA = await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      const paidB = await payOverRest(
        t.app,
        t.world.otherClient.bearer_token!,
        t.world.otherFacility.id,
        otherShop,
      );
      // A's payment committed first: had B been sent it, it would be there before B's own.
      await until("B's own payment to arrive", () => paymentIds(own).includes(paidB));
      expect(paymentIds(own)).toEqual([paidB]);
      expect(JSON.stringify(own.results)).not.toContain(paidA);
    } finally {
      await client.dispose();
    }
  });

  it("refuses another company's facility (FORBIDDEN) and an unknown one (NOT_FOUND) before streaming", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const foreign = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      const unknown = subscribeWs(client, ACTIVITY, { facilityId: '00000000-0000-4000-8000-000000000000' });
      await until('both refusals', () => foreign.completed && unknown.completed);
      expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
      expect(codesOf(unknown)).toEqual(['NOT_FOUND']);
      expect(t.services.live.subscriberCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});
