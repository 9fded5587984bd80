import { migrateDown, migrateToLatest } from '../../src/store/migrator';
import { RevisionsRepository } from '../../src/store/repositories/revisions.repository';
import { buildItem, buildWorld, worldDataset } from '../support/factories';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

describeEachDialect('migrations', (dialect) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await createTestStore(dialect);
  });
  afterAll(() => db.close());

  it('takes the revision counters down and back up, and they count writes again', async () => {
    // The e-sign signing tables come after the counters: down they go first.
    await migrateDown(db.store.db);
    const down = await migrateDown(db.store.db);
    expect(down.results?.map((r) => r.migrationName)).toEqual(['20261121150000_data_revisions']);
    const tables = await db.store.db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('data_revisions');

    // With the counters gone, writes still work: no trigger is left behind.
    const world = buildWorld();
    await importDataset(db.store, worldDataset(world));
    const item = buildItem({ facility_id: world.facility.id });
    await importDataset(db.store, { version: 1, invoiceable_items: [item] });

    await migrateToLatest(db.store.db);
    const revisions = new RevisionsRepository(db.store.db);
    const before = await revisions.token(`items:${world.facility.id}`);
    await importDataset(db.store, { version: 1, invoiceable_items: [{ ...item, description: 'Renamed' }] });
    expect(await revisions.token(`items:${world.facility.id}`)).not.toBe(before);
  });
});
