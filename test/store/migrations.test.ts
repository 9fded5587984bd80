import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { sql } from 'kysely';
import * as InvoiceableItem from '../../src/areas/invoiceable-items/invoiceable-item.contract';
import * as RateChangeUpdate from '../../src/areas/rate-changes/rate-change-update.contract';
import { SqlInvoiceableItemsRepository } from '../../src/areas/invoiceable-items/invoiceable-items.repository';
import { MIGRATION_NAMES, migrateDown, migrateToLatest } from '../../src/store/migrator';
import { openStore } from '../../src/store/database';
import { rebuildListings } from '../../src/store/listings';
import { DATASET_PLANS, LISTING_SOURCES } from '../../src/modules';
import { SqlRateChangesRepository } from '../../src/areas/rate-changes/rate-changes.repository';
import { RevisionsRepository } from '../../src/store/repositories/revisions.repository';
import {
  buildDiscount,
  buildInsurance,
  buildItem,
  buildLedger,
  buildRateAppliedAction,
  buildRateChange,
  buildService,
  buildTenant,
  buildUnit,
  buildWorld,
  worldDataset,
  type World,
} from '../support/factories';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { SqlTrustedDocumentsRepository } from '../../src/store/repositories/trusted-documents.repository';
import { domainEventBus } from '../../src/modules';
import type { DatasetRateChange, DatasetTenant, DatasetUnit } from '../../src/store/dataset/dataset.types';
import { createTestStore, describeEachDialect, itOnPostgres, type TestStore } from '../support/harness';
import { POSTGRES_URL } from '../support/dialects';

describe('the migrations', () => {
  it('are the files of src/store/migrations, oldest first', () => {
    const files = readdirSync(join(__dirname, '../../src/store/migrations'));
    expect(MIGRATION_NAMES).toEqual(files.map((file) => file.replace(/\.ts$/, '')).sort());
    expect(MIGRATION_NAMES.slice(0, 2)).toEqual([
      '20261121120000_initial',
      '20261121130000_rate_change_counts',
    ]);
    expect(MIGRATION_NAMES).toContain('20261128130000_listing_versions');
  });
});

describeEachDialect('migrations', (dialect) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await createTestStore(dialect);
  });
  afterAll(() => db.close());

  /**
   * Takes the latest `steps` migrations down one at a time, from 20261128110000 (those after it,
   * which the lists below do not name, go down first): the names each step took down.
   */
  const takeDown = async (steps: number) => {
    const latest = async () =>
      (await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db.store.db))
        .rows[0]?.name;
    while ((await latest()) > '20261128110000_client_credentials') await migrateDown(db.store.db);
    const names: (string[] | undefined)[] = [];
    for (let step = 0; step < steps; step++) {
      names.push((await migrateDown(db.store.db)).results?.map((r) => r.migrationName));
    }
    return names;
  };

  const rateChangeRepository = () =>
    new SqlRateChangesRepository(db.store.db, db.store.arrays, db.store.bytes);

  /** Imports the world with its one tenant, unit and their rate changes. */
  const importChanges = (
    world: World,
    tenant: DatasetTenant,
    unit: DatasetUnit,
    changes: DatasetRateChange[],
  ) =>
    importDataset(db.store, DATASET_PLANS, {
      ...worldDataset(world),
      tenants: [tenant],
      units: [unit],
      rate_changes: changes,
    });

  it('runs every migration in order on an empty database, then down to none and up again', async () => {
    const fresh = await createTestStore(dialect);
    try {
      // The harness migrated it: down to none, one at a time, newest first.
      const downs: string[] = [];
      for (;;) {
        const result = await migrateDown(fresh.store.db);
        const names = (result.results ?? []).map((r) => r.migrationName);
        if (names.length === 0) break;
        downs.push(...names);
      }
      expect(downs).toEqual([...MIGRATION_NAMES].reverse());
      const left = (await fresh.store.db.introspection.getTables()).map((table) => table.name);
      expect(left).toEqual([]);
      const up = await migrateToLatest(fresh.store.db);
      expect(up.results?.map((r) => `${r.migrationName} ${r.status}`)).toEqual(
        MIGRATION_NAMES.map((name) => `${name} Success`),
      );
      // And the schema serves: a world imported, its listings current.
      await importDataset(fresh.store, DATASET_PLANS, worldDataset(buildWorld()));
      expect(await rebuildListings(fresh.store, LISTING_SOURCES)).toHaveLength(2);
      expect(await rebuildListings(fresh.store, LISTING_SOURCES)).toEqual([]);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it('takes the revision counters down and back up, and they count writes again', async () => {
    const world = buildWorld();
    await importDataset(db.store, DATASET_PLANS, worldDataset(world));
    const item = buildItem({ facility_id: world.facility.id });
    await importDataset(db.store, DATASET_PLANS, { version: 1, invoiceable_items: [item] });
    // The migrations after the counters go down first.
    let down = await migrateDown(db.store.db);
    while (down.results?.[0]?.migrationName !== '20261121150000_data_revisions') {
      expect(down.results).toHaveLength(1);
      down = await migrateDown(db.store.db);
    }
    expect(down.results?.map((r) => r.migrationName)).toEqual(['20261121150000_data_revisions']);
    const tables = await db.store.db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('data_revisions');

    // With the counters gone, writes still work: no trigger is left behind. (The import writes
    // the columns of the latest schema, so these writes are made directly.)
    await db.store.db
      .updateTable('facilities')
      .set({ name: 'Renamed' })
      .where('id', '=', world.facility.id)
      .execute();
    await db.store.db
      .updateTable('invoiceable_items')
      .set({ description: 'Renamed' })
      .where('id', '=', item.id)
      .execute();

    await migrateToLatest(db.store.db);
    const revisions = new RevisionsRepository(db.store.db);
    const before = await revisions.token(`items:${world.facility.id}`);
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      invoiceable_items: [{ ...item, description: 'Renamed again' }],
    });
    expect(await revisions.token(`items:${world.facility.id}`)).not.toBe(before);
  });

  it("moves a facility's ledger and rate applied action counters with every write to them", async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    await importDataset(db.store, DATASET_PLANS, worldDataset(world));
    const revisions = new RevisionsRepository(db.store.db);
    const f = world.facility.id;
    const tokens = async () => [await revisions.token(`ledgers:${f}`), await revisions.token(`actions:${f}`)];
    const tenant = buildTenant({ facility_id: f });
    const unit = buildUnit({ facility_id: f });
    const ledger = buildLedger({ facility_id: f, tenant_id: tenant.id, unit_id: unit.id });
    let before = await tokens();
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
    });
    let after = await tokens();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).toBe(before[1]);

    for (const part of [
      { ledger_services: [buildService({ ledger_id: ledger.id })] },
      { ledger_insurances: [buildInsurance({ ledger_id: ledger.id })] },
      { ledger_discounts: [buildDiscount({ ledger_id: ledger.id })] },
    ]) {
      before = after;
      await importDataset(db.store, DATASET_PLANS, { version: 1, ...part });
      after = await tokens();
      expect(after[0]).not.toBe(before[0]);
    }
    before = after;
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      rate_applied_actions: [
        buildRateAppliedAction({ facility_id: f, new_ledger_id: ledger.id, unit_id: unit.id }),
      ],
    });
    after = await tokens();
    expect(after[1]).not.toBe(before[1]);
    // The facility's time zone decides "today" and the offsets shown: both counters move with it.
    before = after;
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      facilities: [{ ...world.facility, time_zone: 'Asia/Tokyo' }],
    });
    after = await tokens();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    // Another facility's counters stay.
    const other = buildWorld();
    await importDataset(db.store, DATASET_PLANS, worldDataset(other));
    expect(await tokens()).toEqual(after);
  });

  it('takes the commit-order numbering of live events down and back up, events numbered either way', async () => {
    await migrateToLatest(db.store.db);
    /** Writes one live event the way the services do and answers the number it has once committed. */
    const written = async (name: string) => {
      await db.store.db.transaction().execute((trx) =>
        domainEventBus().publish(trx, [
          {
            type: 'note.created',
            facilityId: name,
            eventId: name,
            occurredAt: '2026-11-28T10:00:00.000Z',
            body: '{}',
          },
        ]),
      );
      const row = await db.store.db
        .selectFrom('live_events')
        .select('seq')
        .where('event_id', '=', name)
        .executeTakeFirstOrThrow();
      return Number(row.seq);
    };
    const first = await written('numbered-at-commit');
    expect(await takeDown(2)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
    ]);
    const second = await written('numbered-at-insert');
    await migrateToLatest(db.store.db);
    const third = await written('numbered-at-commit-again');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(third).toBeGreaterThan(second);
    await db.store.db.deleteFrom('live_events').execute();
  });

  it('takes the trusted documents down and back up, a document added once however often it is given', async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    await importDataset(db.store, DATASET_PLANS, worldDataset(world));
    const repository = new SqlTrustedDocumentsRepository(db.store.db);
    const document = {
      documentId: 'a'.repeat(64),
      body: '{ __typename }',
      operationNames: [],
      createdAt: '2026-11-28T09:00:00.000Z',
    };
    expect(await repository.add(world.client.id, [document, document])).toBe(1);
    expect(await repository.find(world.client.id, document.documentId)).toEqual({
      body: '{ __typename }',
      operationNames: [],
    });
    expect(await takeDown(3)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
    ]);
    // This database's own tables: PostgreSQL's introspection lists every schema's (other test files' too).
    const own =
      dialect === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.store.db)).rows[0]
            .schema
        : undefined;
    const tables = async () =>
      (await db.store.db.introspection.getTables())
        .filter((table) => table.schema === own)
        .map((table) => table.name);
    expect(await tables()).not.toContain('trusted_documents');
    await migrateToLatest(db.store.db);
    expect(await tables()).toContain('trusted_documents');
    expect(await repository.list(world.client.id)).toEqual([]);
    expect(await repository.add(world.client.id, [document])).toBe(1);
    await db.store.db.deleteFrom('trusted_documents').execute();
  });

  it('clears the Idempotency-Key fingerprints made over whole card data, and keeps those made without', async () => {
    await migrateToLatest(db.store.db);
    expect(await takeDown(6)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
      ['20261127170000_live_events'],
      ['20261127150000_sealing_certificates'],
      ['20261127120000_idempotency_fingerprint_v2'],
    ]);
    const key = (name: string, requestHash: string) => ({
      client_id: 'fingerprints',
      key: `rest:${name}`,
      request_hash: requestHash,
      response_status: 200,
      response_body: '{}',
      created_at: '2026-11-26T12:00:00.000Z',
      expires_at: '2026-11-27T12:00:00.000Z',
    });
    const current = `v2:${'c'.repeat(64)}`;
    await db.store.db
      .insertInto('idempotency_keys')
      .values([key('before', 'a'.repeat(64)), key('since', current)])
      .execute();
    await migrateToLatest(db.store.db);
    const rows = await db.store.db
      .selectFrom('idempotency_keys')
      .select(['key', 'request_hash'])
      .where('client_id', '=', 'fingerprints')
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'rest:before', request_hash: 'cleared' },
      { key: 'rest:since', request_hash: current },
    ]);
  });

  it('gives the rate changes stored before it the names of their tenants and units', async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    const f = world.facility.id;
    const tenant = buildTenant({ facility_id: f, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: f, name: 'B-202' });
    const change = buildRateChange({ facility_id: f, tenant_id: tenant.id, unit_id: unit.id });
    await importChanges(world, tenant, unit, [change]);

    // The listings, which are made from those names, go down first.
    expect(await takeDown(11)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
      ['20261127170000_live_events'],
      ['20261127150000_sealing_certificates'],
      ['20261127120000_idempotency_fingerprint_v2'],
      ['20261126120000_monthly_rate_change_counts'],
      ['20261125160000_count_keys_carry_counts'],
      ['20261125150000_item_listings'],
      ['20261125140000_rate_change_listings'],
      ['20261125130000_rate_change_names'],
    ]);
    await migrateToLatest(db.store.db);
    const [read] = await rateChangeRepository().findByIds([change.id]);
    expect(read).toMatchObject({
      tenantName: 'Grace Hopper',
      unitName: 'B-202',
      facilityName: world.facility.name,
    });
  });

  it('gives the rate changes stored before it their listings, whatever their number', async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    const f = world.facility.id;
    const tenant = buildTenant({ facility_id: f, first_name: 'Ada "the first"', last_name: 'Lovelace' });
    const unit = buildUnit({ facility_id: f, name: 'Ü-1' });
    // More than one chunk of the migration's writes.
    const changes = Array.from({ length: 5003 }, (_, i) =>
      buildRateChange({
        facility_id: f,
        tenant_id: tenant.id,
        unit_id: unit.id,
        changed_at: new Date(Date.UTC(2031, 0, 1) + i * 60_000).toISOString(),
      }),
    );
    await importChanges(world, tenant, unit, changes);
    const repository = rateChangeRepository();
    const window = {
      companyId: world.company.id,
      after: '2031-01-01T00:00:00.000Z',
      before: '2032-01-01T00:00:00.000Z',
      createdBy: null,
    };
    const listed = async () =>
      Buffer.from((await repository.listingInWindow(window, 0, 2000)).listings).toString();
    const imported = await listed();

    expect(await takeDown(10)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
      ['20261127170000_live_events'],
      ['20261127150000_sealing_certificates'],
      ['20261127120000_idempotency_fingerprint_v2'],
      ['20261126120000_monthly_rate_change_counts'],
      ['20261125160000_count_keys_carry_counts'],
      ['20261125150000_item_listings'],
      ['20261125140000_rate_change_listings'],
    ]);
    // The migration adds the column; the listings are written by the rebuild `migrate` runs after it.
    await migrateToLatest(db.store.db);
    await rebuildListings(db.store, LISTING_SOURCES);
    expect(await listed()).toBe(imported);
    const { rateChanges } = await repository.pageInWindow(window, 0, 2000);
    expect(imported).toBe(rateChanges.map(RateChangeUpdate.listing).join(','));
    const [{ empty }] = await db.store.db
      .selectFrom('rate_changes')
      .select((eb) => eb.fn.countAll<number>().as('empty'))
      .where('listing', '=', '')
      .execute();
    expect(Number(empty)).toBe(0);
  });

  it('gives the items stored before it their listings, retail ones either side of the quantity', async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    const f = world.facility.id;
    const items = [
      buildItem({ facility_id: f, kind: 'retail', description: 'Lock "disc"', quantity: 3 }),
      buildItem({ facility_id: f, kind: 'insurance', description: 'Cover', coverage_percentage: 2 / 3 }),
      buildItem({ facility_id: f, kind: 'fee', description: 'Admin' }),
    ];
    await importDataset(db.store, DATASET_PLANS, { ...worldDataset(world), invoiceable_items: items });
    const repository = new SqlInvoiceableItemsRepository(db.store.db, db.store.arrays, db.store.bytes);
    const listed = async () => Buffer.from((await repository.listingPage(f, {}, 100, 0)).listings).toString();
    const imported = await listed();
    expect(imported).toContain('"quantity":3,');

    expect(await takeDown(9)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
      ['20261127170000_live_events'],
      ['20261127150000_sealing_certificates'],
      ['20261127120000_idempotency_fingerprint_v2'],
      ['20261126120000_monthly_rate_change_counts'],
      ['20261125160000_count_keys_carry_counts'],
      ['20261125150000_item_listings'],
    ]);
    await migrateToLatest(db.store.db);
    await rebuildListings(db.store, LISTING_SOURCES);
    expect(await listed()).toBe(imported);
    const { entries } = await repository.pricedPage(f, {}, 100, 0);
    expect(imported).toBe(
      entries.map((priced) => JSON.stringify(InvoiceableItem.toContract(priced))).join(','),
    );
  });

  it('keeps every window count right down and back up the monthly counts and the count keys', async () => {
    await migrateToLatest(db.store.db);
    const world = buildWorld();
    const tenant = buildTenant({ facility_id: world.facility.id });
    const unit = buildUnit({ facility_id: world.facility.id });
    const of = { facility_id: world.facility.id, tenant_id: tenant.id, unit_id: unit.id };
    // Three months of changes, every 70 hours.
    const changes = Array.from({ length: 30 }, (_, i) =>
      buildRateChange({
        ...of,
        created_by: i % 3,
        changed_at: new Date(Date.UTC(2033, 0, 1) + i * 70 * 3_600_000).toISOString(),
      }),
    );
    await importChanges(world, tenant, unit, changes);
    const repository = rateChangeRepository();
    // A window of whole months between runs of days and partial days, and one inside a month.
    const windows = [
      ...[null, 0, 2].map((createdBy) => ({
        companyId: world.company.id,
        after: '2033-01-02T05:00:00.000Z',
        before: '2033-03-07T12:00:00.000Z',
        createdBy,
      })),
      {
        companyId: world.company.id,
        after: '2033-01-02T00:00:00.000Z',
        before: '2033-01-07T12:00:00.000Z',
        createdBy: null,
      },
    ];
    const counts = async () =>
      Promise.all(
        windows.map(async (window) => (await repository.listingInWindow(window, 0, 5)).totalEntries),
      );
    const expected = windows.map(
      (window) =>
        changes.filter(
          (c) =>
            c.changed_at >= window.after &&
            c.changed_at < window.before &&
            (window.createdBy === null || c.created_by === window.createdBy),
        ).length,
    );
    expect(expected[0]).toBeGreaterThan(expected[1]);
    expect(await counts()).toEqual(expected);

    expect(await takeDown(8)).toEqual([
      ['20261128110000_client_credentials'],
      ['20261128100000_live_events_commit_order'],
      ['20261128090000_trusted_documents'],
      ['20261127170000_live_events'],
      ['20261127150000_sealing_certificates'],
      ['20261127120000_idempotency_fingerprint_v2'],
      ['20261126120000_monthly_rate_change_counts'],
      ['20261125160000_count_keys_carry_counts'],
    ]);
    // Written while the daily counts alone are kept, counted in the months made from them.
    const writes = [
      buildRateChange({ ...of, changed_at: '2033-02-10T00:00:00.000Z' }),
      buildRateChange({ ...of, changed_at: '2033-02-03T00:00:00.000Z' }),
    ];
    await importDataset(db.store, DATASET_PLANS, { version: 1, rate_changes: [writes[0]] });
    await migrateToLatest(db.store.db);
    expected[0] += 1;
    expect(await counts()).toEqual(expected);
    // A write after the change still counts (the triggers' upserts find the new keys).
    await importDataset(db.store, DATASET_PLANS, { version: 1, rate_changes: [writes[1]] });
    expect((await counts())[0]).toBe(expected[0] + 1);
    changes.push(...writes);
    const monthly = await db.store.db
      .selectFrom('rate_change_monthly_counts')
      .select(['month', 'entries'])
      .where('company_id', '=', world.company.id)
      .orderBy('month')
      .execute();
    expect(monthly.map((row) => [row.month, Number(row.entries)])).toEqual([
      ['2033-01', changes.filter((c) => c.changed_at < '2033-02').length],
      ['2033-02', changes.filter((c) => c.changed_at.startsWith('2033-02')).length],
      ['2033-03', changes.filter((c) => c.changed_at.startsWith('2033-03')).length],
    ]);
    if (dialect === 'postgres') {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where schemaname = current_schema() and indexname like 'rate_change%_counts_pk'`.execute(db.store.db);
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.indexdef).toMatch(/INCLUDE \(entries\)/);
    }
  });
});

describe('migrations of instances sharing one PostgreSQL database', () => {
  itOnPostgres(
    "migrates each schema named by its URL, another instance's tables beside it",
    async () => {
      const schemas = [0, 1].map(() => `t_${randomBytes(6).toString('hex')}`);
      const admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      try {
        for (const schema of schemas) await admin.query(`create schema ${schema}`);
        for (const schema of schemas) {
          // As `serve` and `migrate` open it: the schema in the URL's options, no schema given.
          const store = openStore(
            `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
          );
          try {
            const result = await migrateToLatest(store.db);
            expect(result.results?.map((r) => r.migrationName)).toEqual(MIGRATION_NAMES);
          } finally {
            await store.close();
          }
        }
        const { rows } = await admin.query<{ schema: string }>(
          `select table_schema as schema from information_schema.tables
           where table_name = 'kysely_migration' and table_schema = any($1) order by 1`,
          [schemas],
        );
        expect(rows.map((row) => row.schema)).toEqual([...schemas].sort());
      } finally {
        for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
    60_000,
  );

  /** Two fresh schemas, each opened as `serve` opens its URL; dropped at the end. */
  const withTwoSchemas = async (
    run: (stores: ReturnType<typeof openStore>[], admin: Client, schemas: string[]) => Promise<void>,
  ) => {
    const schemas = [0, 1].map(() => `t_${randomBytes(6).toString('hex')}`);
    const admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    const stores = schemas.map((schema) =>
      openStore(`${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`),
    );
    try {
      for (const schema of schemas) await admin.query(`create schema ${schema}`);
      await run(stores, admin, schemas);
    } finally {
      for (const store of stores) await store.close();
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  };

  itOnPostgres(
    "reads its own tables while another instance's schema is dropped",
    () =>
      withTwoSchemas(async ([store], admin, [own, other]) => {
        await migrateToLatest(store.db);
        await admin.query(`create table ${other}.leftover (id int)`);
        // A snapshot taken before the other schema goes: the catalog rows still show it, as they
        // did to a read that was under way when another test run dropped its schema.
        const tables = await store.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (trx) => {
            await sql`select count(*) from pg_catalog.pg_namespace`.execute(trx);
            await admin.query(`drop schema ${other} cascade`);
            return trx.introspection.getTables();
          });
        expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([own]));
        expect(tables.map((table) => table.name)).toContain('companies');
      }),
    60_000,
  );

  itOnPostgres(
    "migrates while another schema's migration holds its lock",
    () =>
      withTwoSchemas(async ([first, second], _admin, schemas) => {
        const adapter = first.db.getExecutor().adapter;
        const lock = {
          lockTable: 'kysely_migration_lock',
          lockRowId: 'migration_lock',
          lockTableSchema: schemas[0],
        };
        await first.db.connection().execute(async (connection) => {
          await adapter.acquireMigrationLock(connection, lock);
          try {
            const result = await migrateToLatest(second.db);
            expect(result.results?.map((r) => r.migrationName)).toEqual(MIGRATION_NAMES);
          } finally {
            await adapter.releaseMigrationLock(connection, lock);
          }
        });
      }),
    60_000,
  );
});
