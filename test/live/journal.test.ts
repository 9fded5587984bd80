import { SqlLiveJournal } from '../../src/areas/live/live-events.repository';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { loadShop, payOverRest } from './live-support';

describeEachDialect('The live journal', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('is written with each change, pruned past its window but for the newest, and then too old to replay from', async () => {
    const journal = new SqlLiveJournal(t.db.store.db);
    const shop = await loadShop(t, t.world.facility.id);
    for (let i = 0; i < 3; i += 1)
      await payOverRest(t.app, t.world.client.bearer_token!, t.world.facility.id, shop);
    const written = await journal.after(0, 10, { facilityId: t.world.facility.id });
    expect(written.map((event) => event.type)).toEqual([
      'payment.succeeded',
      'payment.succeeded',
      'payment.succeeded',
    ]);

    // Everything is older than a window ending far ahead: all go but the newest.
    expect(await journal.pruneBefore('9999-01-01T00:00:00.000Z')).toBe(2);
    expect((await journal.after(0, 10)).map((event) => event.seq)).toEqual([written[2].seq]);

    await expect(
      t.services.live.subscribe({ facilityId: t.world.facility.id }, written[0].seq),
    ).rejects.toMatchObject({ kind: 'gone' });
    const resumed = await t.services.live.subscribe({ facilityId: t.world.facility.id }, written[1].seq);
    expect(await resumed.next()).toMatchObject({ value: { kind: 'event', event: { seq: written[2].seq } } });
    await resumed.return!();
    expect(t.services.live.subscriberCount).toBe(0);
  });
});
