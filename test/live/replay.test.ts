import { listenOnLoopback } from '../support/gateway';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import {
  ACTIVITY,
  bearer,
  loadShop,
  nextPayloads,
  payOverRest,
  paymentIds,
  rawEventStream,
  subscribeWs,
  until,
  wsClient,
} from './live-support';

const paymentOf = (payload: Record<string, unknown>) =>
  ((payload.data as { facilityActivity?: { payment?: { id: string } } } | undefined)?.facilityActivity
    ?.payment?.id ?? null) as string | null;

describeEachDialect('Nothing lost across a reconnect', (dialect) => {
  let t: TestApp;
  let base: string;
  let shop: Awaited<ReturnType<typeof loadShop>>;
  const pay = () => payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
  const body = () => ({ query: ACTIVITY, variables: { facilityId: t.world.facility.id } });

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { LIVE_REPLAY_LIMIT: '3' } });
    base = await listenOnLoopback(t.app);
    shop = await loadShop(t, t.world.facility.id);
  });
  afterAll(() => t.close());

  it('replays to an SSE client reconnecting with Last-Event-ID what it missed, then goes on live', async () => {
    const first = rawEventStream(base, t.world.client.bearer_token!, body());
    await until('the stream to open', () => t.services.live.subscriberCount === 1);
    const seen = await pay();
    await until('the first payment', () => nextPayloads(first.events).length === 1);
    const lastEventId = first.events.find((e) => e.event === 'next')!.id;
    expect(lastEventId).toMatch(/^\d+$/);
    first.close();
    await until('the stream to be gone', () => t.services.live.subscriberCount === 0);

    const missed = [await pay(), await pay()];
    const again = rawEventStream(base, t.world.client.bearer_token!, body(), {
      'last-event-id': lastEventId!,
    });
    await until('the missed payments', () => nextPayloads(again.events).length === 2);
    const later = await pay();
    await until('the next live payment', () => nextPayloads(again.events).length === 3);
    const ids = nextPayloads(again.events).map(paymentOf);
    expect(ids).toEqual([...missed, later]);
    expect(ids).not.toContain(seen);
    // Each event carries its id, so the next reconnect resumes after the last one received.
    expect(again.events.filter((e) => e.event === 'next').every((e) => /^\d+$/.test(e.id ?? ''))).toBe(true);
    again.close();
    await until('the stream to be gone', () => t.services.live.subscriberCount === 0);
  });

  it('replays to a graphql-ws client through `since`', async () => {
    const before = await pay();
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const probe = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id, since: '0' });
      // The journal holds more than LIVE_REPLAY_LIMIT (3) payments by now: too old from the start.
      await until('the refusal', () => probe.completed);
      expect(JSON.stringify(probe.error ?? probe.results)).toContain('GONE');

      const cursorFeed = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the subscription', () => t.services.live.subscriberCount === 1);
      const marker = await pay();
      await until('the marker payment', () => paymentIds(cursorFeed).includes(marker));
      const cursor = (cursorFeed.results[0].data!.facilityActivity as { cursor: string }).cursor;
      cursorFeed.stop();
      const missed = await pay();
      const resumed = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id, since: cursor });
      await until('the missed payment', () => paymentIds(resumed).includes(missed));
      expect(paymentIds(resumed)).toEqual([missed]);
      expect(paymentIds(resumed)).not.toContain(before);
    } finally {
      await client.dispose();
    }
    // The server hears the socket close a moment later; the next test counts subscribers from zero.
    await until('the subscriptions to be gone', () => t.services.live.subscriberCount === 0);
  });

  it('answers "too old, re-query" (GONE) when more was missed than a replay sends, and subscribes nothing', async () => {
    const first = rawEventStream(base, t.world.client.bearer_token!, body());
    await until('the stream to open', () => t.services.live.subscriberCount === 1);
    await pay();
    await until('a payment', () => nextPayloads(first.events).length === 1);
    const lastEventId = first.events.find((e) => e.event === 'next')!.id!;
    first.close();
    await until('the stream to be gone', () => t.services.live.subscriberCount === 0);
    for (let i = 0; i < 4; i += 1) await pay();

    const again = rawEventStream(base, t.world.client.bearer_token!, body(), {
      'last-event-id': lastEventId,
    });
    await until('the stream to end', () => again.ended());
    const [payload] = nextPayloads(again.events);
    expect(payload.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'GONE' }) }),
    ]);
    expect(String((payload.errors as Array<{ message: string }>)[0].message)).toMatch(
      /query the current state again/,
    );
    expect(again.events.at(-1)?.event).toBe('complete');
    expect(t.services.live.subscriberCount).toBe(0);
  });
});
