import type { LiveItem } from '../../src/areas/live/live.types';
import { createTestApp, type TestApp } from '../support/http';
import { loadShop, payOverRest, until } from './live-support';

describe('A slow consumer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { LIVE_QUEUE_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  it('is dropped with a reason once more events wait than LIVE_QUEUE_LIMIT, and what waited is let go', async () => {
    const shop = await loadShop(t, t.world.facility.id);
    const unread = await t.services.live.subscribe({ facilityId: t.world.facility.id }, null);
    const reading = await t.services.live.subscribe({ facilityId: t.world.facility.id }, null);
    const taken: LiveItem[] = [];
    const readAll = (async () => {
      for await (const item of { [Symbol.asyncIterator]: () => reading }) taken.push(item);
    })();
    for (let i = 0; i < 3; i += 1) {
      await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
    }
    await until('the reader to have all three', () => taken.length === 3);

    const first = await unread.next();
    expect(first.value).toEqual({
      kind: 'ended',
      reason: 'slow_consumer',
      message: expect.stringMatching(/more than 2 events waited unread/),
    });
    expect((await unread.next()).done).toBe(true);
    // The reader that kept up goes on.
    expect(taken.every((item) => item.kind === 'event')).toBe(true);
    await reading.return!();
    await readAll;
    expect(t.services.live.subscriberCount).toBe(0);
  });
});
