import { sql } from 'kysely';
import { Pool, type PoolClient } from 'pg';
import { pgByteRows } from '../../src/fast-paths';
import { pgCopyByteRows } from '../../src/fast-paths/pg-binary-copy';
import { PreparedNames, TextTable } from '../../src/fast-paths/pg-prepared';
import type { ByteRows, ByteTable } from '../../src/store/byte-rows';
import { reusable } from '../../src/store/compiled-statements';
import { openStore, REUSABLE_POOL_MAX } from '../../src/store/database';
import { SqlInvoiceableItemsRepository } from '../../src/areas/invoiceable-items/invoiceable-items.repository';
import {
  PG_MAX_DAY_RUNS,
  SqlRateChangesRepository,
} from '../../src/areas/rate-changes/rate-changes.repository';
import { activeDialects, createTestStore, itOnPostgres, type TestStore } from '../support/harness';
import { POSTGRES_URL, postgresUrlWith } from '../support/dialects';

/** Each row's values as texts, and the second column joined by commas. */
const asTexts = (table: ByteTable) => ({
  values: Array.from({ length: table.rows }, (_, row) =>
    [0, 1].map((column) => table.value(row, column)?.toString() ?? null),
  ),
  joined: table.rows === 0 ? '' : table.joined(1, 0x2c).toString(),
});

/** The prepared statements of the connection `client` holds, by name. */
async function preparedOn(client: PoolClient): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; statement: string }>(
    `select name, statement from pg_prepared_statements where name like 'facility_ops_%'`,
  );
  return new Map(rows.map((row) => [row.name, row.statement]));
}

/**
 * `read` of every connection of `pool`, each connection taken at once (so every idle one is among
 * them): one answer per connection.
 */
async function onEveryConnection<T>(
  pool: Pool,
  connections: number,
  read: (client: PoolClient) => Promise<T>,
): Promise<T[]> {
  const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
  try {
    return await Promise.all(clients.map(read));
  } finally {
    for (const client of clients) client.release();
  }
}

/** The prepared statements of every connection of `pool`: one map per connection. */
const preparedOnEveryConnection = (pool: Pool, connections: number) =>
  onEveryConnection(pool, connections, preparedOn);

describe('reusable reads kept prepared on PostgreSQL', () => {
  let db: TestStore;
  let schema: string;
  // Per test, a pool of one connection (so the statements it holds can be read on it) and its names.
  let pool: Pool;
  beforeAll(async () => {
    if (!activeDialects().includes('postgres')) return;
    db = await createTestStore('postgres');
    schema = (await db.store.pgPool!.query<{ s: string }>('select current_schema() as s')).rows[0].s;
    await db.store.db.schema
      .createTable('prepared_rows')
      .addColumn('id', 'integer')
      .addColumn('listing', 'text')
      .execute();
    await db.store.db
      .insertInto('prepared_rows' as never)
      .values(
        Array.from({ length: 300 }, (_, id) => ({
          id,
          listing: `{"id":${id},"name":"Zoë 東京 ${'é'.repeat(id % 7)}"}`,
        })) as never,
      )
      .execute();
  });
  beforeEach(() => {
    if (schema)
      pool = new Pool({ connectionString: POSTGRES_URL, max: 1, options: `-c search_path=${schema}` });
  });
  afterEach(async () => pool?.end());
  afterAll(async () => db?.close());

  // The page size written into the text, as rowLimit writes it.
  const page = (from: number, size: number) =>
    sql`select cast(count(*) over () as text) as "total", listing from prepared_rows
      where id >= ${from} order by id limit ${sql.lit(size)}`;

  itOnPostgres(
    'reads the same bytes as the binary COPY, prepared once and reused for other values',
    async () => {
      const names = new PreparedNames();
      const prepared: ByteRows = pgByteRows(db.store.db, pool, names);
      const copy: ByteRows = pgCopyByteRows(db.store.db, pool);
      for (const from of [0, 17, 250, 400]) {
        const read = await prepared(reusable(page(from, 100)), asTexts);
        expect(read).toEqual(await copy(page(from, 100), asTexts));
        expect(read.values.length).toBe(Math.max(0, Math.min(100, 300 - from)));
      }
      const client = await pool.connect();
      try {
        expect([...(await preparedOn(client)).keys()]).toEqual(['facility_ops_0']);
      } finally {
        client.release();
      }
      expect(names.size).toBe(1);
    },
  );

  itOnPostgres('prepares no read that is not marked reusable', async () => {
    const names = new PreparedNames();
    const bytes: ByteRows = pgByteRows(db.store.db, pool, names);
    const read = await bytes(page(5, 3), asTexts);
    expect(read.values.map((row) => row[1])).toEqual([
      '{"id":5,"name":"Zoë 東京 ééééé"}',
      '{"id":6,"name":"Zoë 東京 éééééé"}',
      '{"id":7,"name":"Zoë 東京 "}',
    ]);
    expect(names.size).toBe(0);
    const client = await pool.connect();
    try {
      expect((await preparedOn(client)).size).toBe(0);
    } finally {
      client.release();
    }
  });

  itOnPostgres(
    'keeps at most its limit of statements; a read past it runs unnamed and answers alike',
    async () => {
      const names = new PreparedNames(2);
      const bytes: ByteRows = pgByteRows(db.store.db, pool, names);
      // Each page size is a text of its own, as a caller choosing its page size makes them.
      const sizes = [1, 2, 3, 4, 5];
      for (const size of sizes) {
        const read = await bytes(reusable(page(0, size)), asTexts);
        expect(read.values.map((row) => row[0])).toEqual(Array(size).fill('300'));
      }
      expect(names.size).toBe(2);
      const client = await pool.connect();
      try {
        const held = await preparedOn(client);
        expect([...held.keys()].sort()).toEqual(['facility_ops_0', 'facility_ops_1']);
        expect(held.get('facility_ops_1')).toContain('limit 2');
      } finally {
        client.release();
      }
    },
  );

  itOnPostgres(
    'a reusable read through the store stays right after a column is added to its table',
    async () => {
      // As the ledger's charges are read: each row as its JSON text.
      const read = () =>
        db.store.arrays<[string]>(
          reusable(sql`select row_to_json(p)::text as "row" from prepared_rows p where id = ${42}`),
        );
      const before = await Promise.all(Array.from({ length: 20 }, read));
      expect(before[0]).toEqual([['{"id":42,"listing":"{\\"id\\":42,\\"name\\":\\"Zoë 東京 \\"}"}']]);
      const held = await preparedOnEveryConnection(db.store.pgReusablePool!, REUSABLE_POOL_MAX);
      expect(
        held.some((statements) => [...statements.values()].some((text) => text.includes('row_to_json(p)'))),
      ).toBe(true);
      // A migration run by another instance while this one serves: the kept statements are planned again.
      await db.store.db.schema.alterTable('prepared_rows').addColumn('added', 'text').execute();
      const after = await Promise.all(Array.from({ length: 20 }, read));
      for (const rows of after) {
        expect(rows.map(([row]) => JSON.parse(row))).toEqual([
          { ...JSON.parse(before[0][0][0]), added: null },
        ]);
      }
    },
  );

  itOnPostgres(
    'an item page prepares one statement whatever its page size, so callers cannot use up the names',
    async () => {
      const items = new SqlInvoiceableItemsRepository(db.store.db, db.store.arrays, db.store.bytes);
      const facilityId = '00000000-0000-4000-8000-0000000000f1';
      for (let size = 1; size <= 80; size++) {
        expect(await items.listingPage(facilityId, {}, size, 0)).toEqual({
          total: 0,
          listings: Buffer.alloc(0),
        });
        expect(await items.pricedPage(facilityId, {}, size, 0)).toEqual({ total: 0, entries: [] });
      }
      // Past MAX_PREPARED texts, the pages would run unnamed; 80 sizes made four: the REST page and
      // its count, GraphQL's page and its count.
      const texts = new Set(
        (await preparedOnEveryConnection(db.store.pgReusablePool!, REUSABLE_POOL_MAX)).flatMap((statements) =>
          [...statements.values()].filter((text) => text.includes('invoiceable_items')),
        ),
      );
      expect(texts.size).toBe(4);
    },
  );

  /** The plan cache mode, and each prepared statement's generic and custom plans, of every connection of `pool`. */
  const plansOnEveryConnection = (pool: Pool, connections: number) =>
    onEveryConnection(pool, connections, async (client) => ({
      mode: (await client.query<{ mode: string }>("select current_setting('plan_cache_mode') as mode"))
        .rows[0].mode,
      plans: (
        await client.query<{ statement: string; generic: number; custom: number }>(
          `select statement, generic_plans as generic, custom_plans as custom
           from pg_prepared_statements where name like 'facility_ops_%'`,
        )
      ).rows,
    }));

  itOnPostgres(
    "a window of a few days is read prepared, one statement per number of days whatever the page's size or offset",
    async () => {
      const changes = new SqlRateChangesRepository(db.store.db, db.store.arrays, db.store.bytes);
      const companyId = '00000000-0000-4000-8000-0000000000c1';
      const day = Date.parse('2026-03-02T00:00:00.000Z');
      for (let size = 1; size <= 40; size++) {
        for (let days = 1; days <= PG_MAX_DAY_RUNS; days++) {
          const window = {
            companyId,
            after: new Date(day + size * 86_400_000).toISOString(),
            before: new Date(day + (size + days) * 86_400_000).toISOString(),
            createdBy: null,
          };
          expect(await changes.listingInWindow(window, size % 3, size)).toEqual({
            totalEntries: 0,
            listings: new Uint8Array(0),
          });
        }
      }
      const connections = await plansOnEveryConnection(db.store.pgReusablePool!, REUSABLE_POOL_MAX);
      const dayPages = connections.flatMap(({ plans }) =>
        plans.filter((plan) => plan.statement.includes('left(changed_at, 10)')),
      );
      // Past MAX_PREPARED texts, the pages would run unnamed: 120 windows made one text a number of days.
      expect(new Set(dayPages.map((plan) => plan.statement)).size).toBe(PG_MAX_DAY_RUNS);
      for (const plan of dayPages) expect(plan).toMatchObject({ custom: 0 });
      expect(dayPages.reduce((sum, plan) => sum + Number(plan.generic), 0)).toBe(40 * PG_MAX_DAY_RUNS);
    },
  );

  itOnPostgres(
    'runs the reusable reads on generic plans, planned once, and every other statement for its values',
    async () => {
      const items = new SqlInvoiceableItemsRepository(db.store.db, db.store.arrays, db.store.bytes);
      const facilities = Array.from(
        { length: 12 },
        (_, i) => `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
      );
      const itemPagesOf = (connections: Awaited<ReturnType<typeof plansOnEveryConnection>>) =>
        connections.flatMap(({ plans }) =>
          plans.filter(
            (plan) => plan.statement.includes('invoiceable_items') && plan.statement.includes('listing'),
          ),
        );
      const generic = (plans: ReturnType<typeof itemPagesOf>) =>
        plans.reduce((sum, plan) => sum + Number(plan.generic), 0);
      const before = generic(
        itemPagesOf(await plansOnEveryConnection(db.store.pgReusablePool!, REUSABLE_POOL_MAX)),
      );
      // More reads than connections, each facility's three at once: PostgreSQL's own choice plans
      // the first five on each connection for their values.
      for (const facilityId of facilities) {
        await Promise.all(Array.from({ length: 3 }, () => items.listingPage(facilityId, {}, 100, 0)));
      }
      const connections = await plansOnEveryConnection(db.store.pgReusablePool!, REUSABLE_POOL_MAX);
      const itemPages = itemPagesOf(connections);
      expect(itemPages.length).toBeGreaterThan(0);
      for (const plan of itemPages) expect(plan).toMatchObject({ custom: 0 });
      expect(generic(itemPages) - before).toBe(36);
      for (const { mode } of connections) expect(mode).toBe('force_generic_plan');
      // The other pool's statements (Kysely's, the longer rate change windows) stay planned for their values.
      const other = await db.store.pgPool!.query<{ mode: string }>(
        "select current_setting('plan_cache_mode') as mode",
      );
      expect(other.rows[0].mode).toBe('auto');
    },
  );

  itOnPostgres('leaves the plan cache mode an operator chose for the reusable reads', async () => {
    const store = openStore(
      postgresUrlWith({ options: `-c search_path=${schema} -c plan_cache_mode=force_custom_plan` }),
    );
    try {
      const items = new SqlInvoiceableItemsRepository(store.db, store.arrays, store.bytes);
      const facilityId = '00000000-0000-4000-8000-0000000000f2';
      for (let i = 0; i < 8; i++) {
        expect(await items.listingPage(facilityId, {}, 100, 0)).toEqual({
          total: 0,
          listings: Buffer.alloc(0),
        });
      }
      const [connection] = await plansOnEveryConnection(store.pgReusablePool!, 1);
      expect(connection.mode).toBe('force_custom_plan');
      const listings = connection.plans.filter((plan) => plan.statement.includes('listing'));
      expect(listings).toHaveLength(1);
      expect(listings[0]).toMatchObject({ generic: 0, custom: 8 });
    } finally {
      await store.close();
    }
  });

  it('joins a column of texts as the bytes of each text and the separator, on either store', () => {
    const table = new TextTable([
      ['1', 'Zoë'],
      ['2', null],
      ['3', '🚚'],
    ]);
    expect(table.joined(1, 0x2c).equals(Buffer.from('Zoë,,🚚'))).toBe(true);
    expect(table.value(2, 1)?.equals(Buffer.from('🚚'))).toBe(true);
    expect(table.value(1, 1)).toBeNull();
    expect(() => table.joined(1, 0xe9)).toThrow(/not ASCII/);
  });
});
