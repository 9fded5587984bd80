import path from 'node:path';
import { sql } from 'kysely';
import { runCommand, tempDir, testIo } from './cli-support';
import { runCli } from '../../src/cli/cli';
import { SqlInvoiceableItemsRepository } from '../../src/areas/invoiceable-items/invoiceable-items.repository';
import { SqlRateChangesRepository } from '../../src/areas/rate-changes/rate-changes.repository';
import * as InvoiceableItem from '../../src/areas/invoiceable-items/invoiceable-item.contract';
import * as RateChangeUpdate from '../../src/areas/rate-changes/rate-change-update.contract';
import { openStore, type Store } from '../../src/store/database';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { rebuildListings } from '../../src/store/listings';
import { DATASET_PLANS, LISTING_SOURCES, LISTING_VERSIONS } from '../../src/modules';
import {
  buildItem,
  buildRateChange,
  buildTenant,
  buildUnit,
  buildWorld,
  worldDataset,
  type World,
} from '../support/factories';

describe('stored listings and the version of the code that wrote them', () => {
  let remove: () => void;
  let env: Record<string, string>;
  let store: Store;
  let world: World;

  beforeEach(async () => {
    let dir: string;
    ({ dir, remove } = tempDir());
    env = { DATABASE_URL: `sqlite:${path.join(dir, 'facility-ops.db')}` };
    expect((await runCommand(['migrate'], env)).code).toBe(0);
    store = openStore(env.DATABASE_URL);
    world = buildWorld();
    const f = world.facility.id;
    const tenant = buildTenant({ facility_id: f });
    const unit = buildUnit({ facility_id: f });
    await importDataset(store, DATASET_PLANS, {
      ...worldDataset(world),
      tenants: [tenant],
      units: [unit],
      // More than two batches of the rebuild's writes.
      rate_changes: Array.from({ length: 4500 }, (_, i) =>
        buildRateChange({
          facility_id: f,
          tenant_id: tenant.id,
          unit_id: unit.id,
          changed_at: new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString(),
        }),
      ),
      invoiceable_items: [
        buildItem({ facility_id: f, kind: 'retail', quantity: 4 }),
        buildItem({ facility_id: f, kind: 'fee' }),
      ],
    });
  });
  afterEach(async () => {
    await store.close();
    remove();
  });

  const window = () => ({
    companyId: world.company.id,
    after: '2031-01-01T00:00:00.000Z',
    before: '2032-01-01T00:00:00.000Z',
    createdBy: null,
  });
  /** What the pages answer: the stored listings joined, and the listings this code makes of the rows. */
  const answered = async () => {
    const changes = new SqlRateChangesRepository(store.db, store.arrays, store.bytes);
    const items = new SqlInvoiceableItemsRepository(store.db, store.arrays, store.bytes);
    const f = world.facility.id;
    return {
      stored: [
        Buffer.from((await changes.listingInWindow(window(), 0, 5000)).listings).toString(),
        Buffer.from((await items.listingPage(f, {}, 100, 0)).listings).toString(),
      ],
      fresh: [
        (await changes.pageInWindow(window(), 0, 5000)).rateChanges.map(RateChangeUpdate.listing).join(','),
        (await items.pricedPage(f, {}, 100, 0)).entries
          .map((priced) => JSON.stringify(InvoiceableItem.toContract(priced)))
          .join(','),
      ],
    };
  };
  /** The listings as an older release wrote them: other bytes, under another version. */
  const writtenByAnOlderRelease = async () => {
    await sql`update rate_changes set listing = '{"written":"by an older release"}'`.execute(store.db);
    await sql`update invoiceable_items set listing = '{"written":"by an older release"}', listing_rest = null`.execute(
      store.db,
    );
    await store.db.updateTable('listing_versions').set({ version: 'older0000000000' }).execute();
  };

  it("keeps the versions this release writes (a change rebuilds every installation's listings at its upgrade: say so in CHANGELOG.md)", () => {
    expect(LISTING_VERSIONS).toEqual({
      invoiceable_items: '89ced1e4723f1198',
      rate_changes: 'ad80dd830b3157d8',
    });
  });

  it('says a listing of an older version is stale; migrate rebuilds it, and it is answered fresh', async () => {
    const imported = await answered();
    expect(imported.stored).toEqual(imported.fresh);
    await writtenByAnOlderRelease();
    expect((await answered()).stored).not.toEqual(imported.fresh);

    const status = await runCommand(['listings', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.out.split('\n')).toEqual([
      expect.stringMatching(/^listings in sqlite:/),
      `  invoiceable_items: stale (version older0000000000; this release writes ${LISTING_VERSIONS.invoiceable_items}; 2 rows): \`listings rebuild\` or \`migrate\` rebuilds them`,
      `  rate_changes: stale (version older0000000000; this release writes ${LISTING_VERSIONS.rate_changes}; 4,500 rows): \`listings rebuild\` or \`migrate\` rebuilds them`,
    ]);

    const migrated = await runCommand(['migrate'], env);
    expect(migrated.code).toBe(0);
    expect(migrated.out.split('\n').slice(0, 2)).toEqual([
      `listings of invoiceable_items rebuilt to version ${LISTING_VERSIONS.invoiceable_items}: 2 written`,
      `listings of rate_changes rebuilt to version ${LISTING_VERSIONS.rate_changes}: 4,500 written`,
    ]);
    expect(await answered()).toEqual(imported);
    // Again: nothing to do.
    expect((await runCommand(['migrate'], env)).out).not.toMatch(/rebuilt/);
    expect((await runCommand(['listings', 'rebuild'], env)).out).toBe(
      'every listing is current: nothing to rebuild (--all rebuilds them anyway)',
    );
  });

  it('rebuilds stale listings before serving', async () => {
    await writtenByAnOlderRelease();
    const t = testIo({ ...env, PORT: '0' });
    const serving = runCli(['serve'], t.io);
    await t.line(/listening on/);
    const rebuilt = t.out.findIndex((line) => line.startsWith('listings of rate_changes rebuilt'));
    expect(rebuilt).toBeGreaterThanOrEqual(0);
    expect(rebuilt).toBeLessThan(t.out.findIndex((line) => /listening on/.test(line)));
    const now = await answered();
    expect(now.stored).toEqual(now.fresh);
    t.stop();
    expect(await serving).toBe(0);
  });

  it('resumes a rebuild stopped after a batch where it left off', async () => {
    await writtenByAnOlderRelease();
    // Killed after its first batch of rate changes was committed.
    await expect(
      rebuildListings(store, LISTING_SOURCES, {
        onBatch: (table) => {
          if (table === 'rate_changes') throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const status = await runCommand(['listings', 'status'], env);
    expect(status.out).toContain(
      `  rate_changes: rebuilding to version ${LISTING_VERSIONS.rate_changes} (this release), stopped or under way, 2,000 of 4,500 rows written; \`listings rebuild\` resumes it`,
    );
    const resumed = await runCommand(['listings', 'rebuild'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.out.split('\n')).toEqual([
      '  rate_changes: 4,000 written',
      '  rate_changes: 4,500 written',
      `listings of rate_changes rebuilt to version ${LISTING_VERSIONS.rate_changes}: 4,500 written (resumed where a stopped rebuild left off)`,
    ]);
    const now = await answered();
    expect(now.stored).toEqual(now.fresh);
    expect((await runCommand(['listings', 'status'], env)).out).toContain(
      `  rate_changes: current (version ${LISTING_VERSIONS.rate_changes}, 4,500 rows)`,
    );
  });

  it('refuses a database migrated by a newer release in one line naming the migration', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('20991231120000_from_a_newer_release', '2099-12-31T12:00:00.000Z')`.execute(
      store.db,
    );
    const line =
      'facility-ops: the database was migrated by a newer release of facility-ops: migration 20991231120000_from_a_newer_release is not one this release knows; run the release that migrated it, or restore a backup made before it (docs/operations.md#upgrades)';
    for (const argv of [['migrate'], ['serve'], ['listings', 'status']]) {
      const result = await runCommand(argv, { ...env, PORT: '0' });
      expect({ argv, code: result.code, err: result.err }).toEqual({ argv, code: 1, err: line });
    }
  });
});
