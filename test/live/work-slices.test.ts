import { performance } from 'node:perf_hooks';
import { WorkSlices } from '../../src/live/work-slices';
import { createTestApp, type TestApp } from '../support/http';
import { loadShop, payOverRest, until } from './live-support';

/** Busy for `ms` milliseconds (a step of work that takes that long). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('WorkSlices', () => {
  it('ends a slice once its time is spent, after 32 steps at least', () => {
    const slices = new WorkSlices(1);
    slices.begin();
    busy(2);
    const spent = Array.from({ length: 32 }, () => slices.spent());
    // The time was spent at once, but a slice moves the work on by 32 steps first.
    expect(spent.indexOf(true)).toBe(31);
  });

  it('does not end a slice before its time, however many steps', () => {
    const slices = new WorkSlices(60_000);
    expect(Array.from({ length: 10_000 }, () => slices.spent()).some(Boolean)).toBe(false);
  });

  it('lets what waits for a turn of the event loop run before the next slice', async () => {
    const slices = new WorkSlices(1);
    const order: string[] = [];
    setImmediate(() => order.push('waiting'));
    await slices.next();
    order.push('next slice');
    expect(order).toEqual(['waiting', 'next slice']);
  });
});

describe('Offering events to thousands of subscribers, in slices', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('gives each subscriber every event of a burst once, in order', async () => {
    const shop = await loadShop(t, t.world.facility.id);
    const subscribers = await Promise.all(
      Array.from({ length: 3_000 }, () =>
        t.services.live.subscribe({ facilityId: t.world.facility.id }, null),
      ),
    );
    const received = subscribers.map(() => [] as number[]);
    const reading = subscribers.map(async (subscriber, i) => {
      for await (const item of { [Symbol.asyncIterator]: () => subscriber }) {
        if (item.kind === 'event') received[i].push(item.event.seq);
      }
    });
    // Paid together: their commits are read, and offered to the 3,000, together.
    await Promise.all(
      Array.from({ length: 8 }, () =>
        payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop),
      ),
    );
    await until('the burst at every subscriber', () => received.every((seqs) => seqs.length >= 8));
    const [first] = received;
    expect(first).toHaveLength(8);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    for (const seqs of received) expect(seqs).toEqual(first);
    await Promise.all(subscribers.map((subscriber) => subscriber.return!()));
    await Promise.all(reading);
    expect(t.services.live.subscriberCount).toBe(0);
  });
});
