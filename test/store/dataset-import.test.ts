import { randomUUID } from 'node:crypto';
import { parseOffsetDateTime } from '../../src/kernel/time';
import { sql } from 'kysely';
import {
  ANALYZE_AFTER_ROWS,
  DatasetError,
  importDataset,
  refreshPlannerStatistics,
  storedInstant,
} from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import type { Dataset } from '../../src/store/dataset/dataset.types';
import type { Store } from '../../src/store/database';
import {
  buildClient,
  buildCompany,
  buildFacility,
  buildItem,
  buildLedger,
  buildRateChange,
  buildTenant,
  buildUnit,
  buildWorld,
  worldDataset,
} from '../support/factories';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

const TABLES = [
  'companies',
  'facilities',
  'tenants',
  'units',
  'ledgers',
  'invoiceable_items',
  'invoiceable_amounts',
  'rate_changes',
  'client_applications',
] as const;

async function tableCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

async function refusal(store: Store, dataset: unknown): Promise<string[]> {
  const error = await importDataset(store, DATASET_PLANS, dataset).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return (error as DatasetError).problems;
}

/** A small file with every kind of reference: tenants, units, a ledger, items and rate changes. */
function sampleFile() {
  const world = buildWorld();
  const facilityId = world.facility.id;
  const tenants = [0, 1, 2, 3].map((n) => buildTenant({ facility_id: facilityId, first_name: `T${n}` }));
  const units = [0, 1, 2, 3].map((n) => buildUnit({ facility_id: facilityId, name: `U-${n}` }));
  const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenants[0].id, unit_id: units[0].id });
  const items = [
    buildItem({ facility_id: facilityId, kind: 'retail' }),
    buildItem({ facility_id: facilityId, kind: 'fee', fee_category: 'reservation' }),
  ];
  const rateChanges = tenants.map((t, n) =>
    buildRateChange({ facility_id: facilityId, tenant_id: t.id, unit_id: units[n].id }),
  );
  const dataset: Dataset = {
    ...worldDataset(world),
    tenants,
    units,
    ledgers: [ledger],
    invoiceable_items: items,
    rate_changes: rateChanges,
  };
  return { world, dataset, tenants, units };
}

describeEachDialect('importDataset', (dialect) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await createTestStore(dialect);
  });
  afterEach(() => t.close());

  if (dialect === 'postgres') {
    it('gives the planner statistics and visibility of the tables a large load wrote, and leaves small loads to autovacuum', async () => {
      /** PostgreSQL's estimate of a table's rows: -1 until the table is first analyzed. */
      const estimate = async (table: string) => {
        const result = await sql<{ rows: number }>`
          select reltuples::float8 as rows from pg_class
          where oid = to_regclass(${table})`.execute(t.store.db);
        return Number(result.rows[0].rows);
      };
      const { world } = sampleFile();
      const facility = world.facility;
      const tenant = buildTenant({ facility_id: facility.id });
      const unit = buildUnit({ facility_id: facility.id });
      const small = { ...worldDataset(world), tenants: [tenant], units: [unit] };
      await refreshPlannerStatistics(t.store, await importDataset(t.store, DATASET_PLANS, small));
      expect(await estimate('tenants')).toBe(-1);

      const many = Array.from({ length: ANALYZE_AFTER_ROWS }, () =>
        buildRateChange({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id }),
      );
      await refreshPlannerStatistics(
        t.store,
        await importDataset(t.store, DATASET_PLANS, { version: small.version, rate_changes: many }),
      );
      expect(await estimate('rate_changes')).toBe(ANALYZE_AFTER_ROWS);
      expect(await estimate('rate_change_daily_counts')).toBeGreaterThanOrEqual(1);
      expect(await estimate('tenants')).toBe(-1);
      // Vacuumed too, so the load's pages are marked all-visible and a page of rate changes walked
      // along the ordering index (which includes the listing) is an index-only scan. How many pages
      // a vacuum can mark depends on the oldest snapshot of the whole database (another test run's
      // open transaction holds it back), so what is checked is that the vacuum ran, on that table
      // alone.
      const vacuums = async (table: string) => {
        await sql`select pg_stat_clear_snapshot()`.execute(t.store.db);
        const result = await sql<{ vacuums: number }>`
          select vacuum_count as vacuums from pg_stat_user_tables
          where relid = to_regclass(${table})`.execute(t.store.db);
        return Number(result.rows[0].vacuums);
      };
      expect(await vacuums('rate_changes')).toBe(1);
      expect(await vacuums('tenants')).toBe(0);
      const pages = await sql<{ pages: number }>`
        select relpages as pages from pg_class where oid = to_regclass('rate_changes')`.execute(t.store.db);
      expect(pages.rows[0].pages).toBeGreaterThan(0);
    });
  }

  it('loads a valid file and answers the count of every table', async () => {
    const { dataset, tenants } = sampleFile();
    const counts = await importDataset(t.store, DATASET_PLANS, dataset);
    expect(counts).toMatchObject({
      companies: 2,
      facilities: 2,
      tenants: 4,
      units: 4,
      ledgers: 1,
      invoiceable_items: 2,
      invoiceable_amounts: 2,
      rate_changes: 4,
      client_applications: 2,
    });
    expect(await tableCounts(t.store)).toEqual({
      companies: 2,
      facilities: 2,
      tenants: 4,
      units: 4,
      ledgers: 1,
      invoiceable_items: 2,
      invoiceable_amounts: 2,
      rate_changes: 4,
      client_applications: 2,
    });
    const stored = await t.store.db
      .selectFrom('rate_changes')
      .select(['tenant_sort', 'changed_at', 'old_rate_cents'])
      .where('tenant_id', '=', tenants[2].id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      tenant_sort: 't2 lovelace',
      changed_at: '2026-11-01T12:00:00.000Z',
      old_rate_cents: 9000,
    });
  });

  it('refuses a file with one bad reference, names the record and field, and writes nothing', async () => {
    const { dataset } = sampleFile();
    const missing = randomUUID();
    dataset.tenants![3] = { ...dataset.tenants![3], facility_id: missing };
    const problems = await refusal(t.store, dataset);
    expect(problems).toContain(`tenants[3].facility_id: no facility ${missing}`);
    expect(Object.values(await tableCounts(t.store)).every((n) => n === 0)).toBe(true);
  });

  it('refuses a reference into another facility', async () => {
    const { world, dataset, tenants, units } = sampleFile();
    await importDataset(t.store, DATASET_PLANS, dataset);
    const before = await tableCounts(t.store);
    const ledger = buildLedger({
      facility_id: world.otherFacility.id,
      tenant_id: tenants[1].id,
      unit_id: units[1].id,
    });
    const problems = await refusal(t.store, { version: 1, ledgers: [ledger] });
    expect(problems).toEqual([
      `ledgers[0].tenant_id: tenant ${tenants[1].id} belongs to another facility`,
      `ledgers[0].unit_id: unit ${units[1].id} belongs to another facility`,
    ]);
    expect(await tableCounts(t.store)).toEqual(before);
  });

  it('resolves references to records already in the database', async () => {
    const { world, dataset, tenants, units } = sampleFile();
    await importDataset(t.store, DATASET_PLANS, dataset);
    const ledger = buildLedger({
      facility_id: world.facility.id,
      tenant_id: tenants[1].id,
      unit_id: units[1].id,
    });
    const counts = await importDataset(t.store, DATASET_PLANS, { version: 1, ledgers: [ledger] });
    expect(counts.ledgers).toBe(1);
    expect((await tableCounts(t.store)).ledgers).toBe(2);
  });

  it('names schema problems by record and field', async () => {
    const company = buildCompany();
    const problems = await refusal(t.store, {
      version: 1,
      companies: [company, { id: 'not-a-uuid' }],
      facilities: [{ ...buildFacility({ company_id: company.id }), colour: 'blue' }],
      units: [{ ...buildUnit({ facility_id: randomUUID() }), rate: '12.50' }],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'companies[1].name: is required',
        expect.stringMatching(/^companies\[1\]\.id: must match format "uuid"$/),
        'facilities[0].colour: is not a known field',
        'units[0].rate: must be number',
      ]),
    );
    expect(await refusal(t.store, { companies: [] })).toEqual(['version: is required']);
    expect(await refusal(t.store, [])).toEqual(['(file): must be object']);
    expect((await tableCounts(t.store)).companies).toBe(0);
  });

  it('runs imports that touch the same rows at the same time one after the other, both complete', async () => {
    const { dataset, tenants, units, world } = sampleFile();
    await importDataset(t.store, DATASET_PLANS, dataset);
    // Each renames the tenants and moves rate changes between the same days, half of them listing
    // the rows in the opposite order (so they would lock the same rows in opposite orders).
    const variant = (suffix: string, days: string[], reversed: boolean) => {
      const order = <T>(rows: T[]) => (reversed ? [...rows].reverse() : rows);
      return {
        version: 1 as const,
        units: order(units),
        tenants: order(tenants.map((tenant) => ({ ...tenant, last_name: `${tenant.last_name} ${suffix}` }))),
        rate_changes: order(
          (dataset.rate_changes ?? []).map((change, n) => ({
            ...change,
            changed_at: `${days[n % days.length]}T12:00:00Z`,
          })),
        ),
      };
    };
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, n) =>
        importDataset(
          t.store,
          DATASET_PLANS,
          n % 2 === 0
            ? variant(`A${n}`, ['2026-01-01', '2026-01-02'], false)
            : variant(`B${n}`, ['2026-01-02', '2026-01-01'], true),
        ),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(12).fill('fulfilled'));
    const counts = await t.store.db
      .selectFrom('rate_change_daily_counts')
      .select(['day', 'entries'])
      .where('company_id', '=', world.company.id.toLowerCase())
      .where('entries', '>', 0)
      .orderBy('day')
      .execute();
    expect(counts.reduce((sum, row) => sum + Number(row.entries), 0)).toBe(tenants.length);
  });

  it('updates records on a second import of the same ids, and keeps the rate change sort keys in step', async () => {
    const { dataset, tenants } = sampleFile();
    await importDataset(t.store, DATASET_PLANS, dataset);
    const before = await tableCounts(t.store);

    const again = await importDataset(t.store, DATASET_PLANS, dataset);
    expect(again.tenants).toBe(4);
    expect(await tableCounts(t.store)).toEqual(before);

    const renamed = { ...tenants[2], first_name: 'Zelda', last_name: 'Young' };
    await importDataset(t.store, DATASET_PLANS, { version: 1, tenants: [renamed] });
    expect(await tableCounts(t.store)).toEqual(before);
    const tenant = await t.store.db
      .selectFrom('tenants')
      .select(['first_name', 'last_name'])
      .where('id', '=', renamed.id)
      .executeTakeFirstOrThrow();
    expect(tenant).toEqual({ first_name: 'Zelda', last_name: 'Young' });
    const sorts = await t.store.db
      .selectFrom('rate_changes')
      .select(['tenant_id', 'tenant_sort'])
      .orderBy('tenant_sort')
      .execute();
    expect(sorts.map((row) => row.tenant_sort)).toEqual([
      't0 lovelace',
      't1 lovelace',
      't3 lovelace',
      'zelda young',
    ]);

    const facility = { ...dataset.facilities![0], name: 'Zenith Storage' };
    await importDataset(t.store, DATASET_PLANS, { version: 1, facilities: [facility] });
    const facilitySorts = await t.store.db
      .selectFrom('rate_changes')
      .select('facility_sort')
      .distinct()
      .execute();
    expect(facilitySorts).toEqual([{ facility_sort: 'zenith storage' }]);
  });

  it('refuses duplicate ids within a list', async () => {
    const { dataset } = sampleFile();
    const twin = { ...dataset.units![1], name: 'Twin' };
    dataset.units!.push(twin);
    dataset.tenants!.push({ ...dataset.tenants![0], id: dataset.tenants![0].id.toUpperCase() });
    const problems = await refusal(t.store, dataset);
    expect(problems).toEqual([
      `tenants[4]: duplicate id ${dataset.tenants![0].id}`,
      `units[4]: duplicate id ${twin.id}`,
    ]);
    expect((await tableCounts(t.store)).units).toBe(0);
  });

  it('refuses ids and keys that another record already has', async () => {
    const { world, dataset } = sampleFile();
    await importDataset(t.store, DATASET_PLANS, dataset);
    const before = await tableCounts(t.store);
    const [retail] = dataset.invoiceable_items!;
    const borrowedTier = buildItem({
      facility_id: world.facility.id,
      kind: 'service',
      invoiceable_amounts: [{ ...retail.invoiceable_amounts[0], amount: 10 }],
    });
    const twoTiers = buildItem({ facility_id: world.facility.id, kind: 'service' });
    twoTiers.invoiceable_amounts.push({ ...twoTiers.invoiceable_amounts[0] });
    const copycat = buildClient({ company_id: world.company.id, consumer_key: world.client.consumer_key });
    const tokenTwin = buildClient({ company_id: world.company.id, bearer_token: world.client.bearer_token });
    const problems = await refusal(t.store, {
      version: 1,
      invoiceable_items: [borrowedTier, twoTiers],
      client_applications: [
        copycat,
        tokenTwin,
        { ...buildClient({ company_id: world.company.id }), consumer_key: copycat.consumer_key },
      ],
    });
    expect(problems).toEqual([
      `invoiceable_items[1].invoiceable_amounts[1]: duplicate id ${twoTiers.invoiceable_amounts[0].id}`,
      'client_applications[2].consumer_key: the same as client_applications[0]',
      `invoiceable_items[0].invoiceable_amounts[0].id: ${retail.invoiceable_amounts[0].id} is an amount of another invoiceable item`,
      'client_applications[0].consumer_key: belongs to another client application',
      'client_applications[2].consumer_key: belongs to another client application',
      'client_applications[1].bearer_token: belongs to another client application',
    ]);
    // Secrets are never repeated in a problem.
    expect(problems.join('\n')).not.toContain(world.client.bearer_token!);
    expect(await tableCounts(t.store)).toEqual(before);
  });

  it('refuses ids that are not plain UUIDs', async () => {
    const problems = await refusal(t.store, {
      version: 1,
      companies: [{ id: `urn:uuid:${randomUUID()}`, name: 'Prefixed' }],
    });
    expect(problems).toEqual(['companies[0].id: must match format "uuid"']);
  });

  it('refuses amounts with more than two decimal places', async () => {
    const { dataset } = sampleFile();
    dataset.units![0].rate = 12.345;
    dataset.rate_changes![1].new_rate = 0.001;
    const problems = await refusal(t.store, dataset);
    expect(problems).toEqual([
      'units[0].rate: 12.345 has more than two decimal places',
      'rate_changes[1].new_rate: 0.001 has more than two decimal places',
    ]);
    expect((await tableCounts(t.store)).units).toBe(0);
  });
});

describe('storedInstant', () => {
  it('stores every shape exactly as parseOffsetDateTime does', () => {
    const samples = [
      '2026-11-21T09:30:00Z',
      '2026-11-21T09:30:00.123Z',
      '2026-11-21T09:30:00-05:00',
      '2026-11-21T23:59:59+13:00',
      '2026-03-08T02:30:00-08:00',
      '2024-02-29T12:00:00+00:00',
      '2026-02-29T12:00:00Z',
      '2026-01-31T00:00:00.5+05:30',
      '2026-12-31T23:00:00-01:00',
      '2026-11-21t09:30:00z',
      '2026-11-21T09:30:00',
      '2026-13-01T00:00:00Z',
      '2026-11-21T24:00:00Z',
      '0999-06-15T10:00:00Z',
    ];
    for (let n = 0; n < 500; n++) {
      const pad = (v: number) => String(v).padStart(2, '0');
      const zone = n % 3 === 0 ? 'Z' : `${n % 2 ? '-' : '+'}${pad(n % 15)}:${pad((n * 15) % 60)}`;
      samples.push(
        `20${pad(n % 40)}-${pad((n % 12) + 1)}-${pad((n % 31) + 1)}T${pad(n % 24)}:${pad(n % 60)}:${pad((n * 7) % 60)}${zone}`,
      );
    }
    for (const value of samples)
      expect([value, storedInstant(value)]).toEqual([value, parseOffsetDateTime(value)]);
  });
});
