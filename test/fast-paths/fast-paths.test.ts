import { sql, type RawBuilder } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config';
import { pgCopyByteRows } from '../../src/fast-paths/pg-binary-copy';
import { pgQueryByteRows } from '../../src/fast-paths/pg-plain-query';
import { plainUtf8, scratchUtf8 } from '../../src/fast-paths/scratch-utf8';
import type { ByteRows, ByteTable } from '../../src/store/byte-rows';
import { activeDialects, createTestStore, itOnPostgres, type TestStore } from '../support/harness';

/** Everything a read gives: each value and each column joined, as bytes of their own. */
const everything = (width: number) => (table: ByteTable) => ({
  rows: table.rows,
  values: Array.from({ length: table.rows }, (_, row) =>
    Array.from({ length: width }, (_, column) => {
      const value = table.value(row, column);
      return value === null ? null : Buffer.from(value).toString('hex');
    }),
  ),
  joined: Array.from({ length: width }, (_, column) => table.joined(column, 0x2c).toString('hex')),
});

// Texts of every width of UTF-8, quotes and backslashes a literal must escape, placeholders'
// look-alikes, and lengths about the scratch buffer's limits (4,096 and 2^20 UTF-16 units).
const TEXTS = [
  '',
  'plain',
  'Zoë García — 東京 🚚',
  "it's \\ and E'\\\\' and $1",
  'é'.repeat(4095),
  'x'.repeat(4096),
  '🚚'.repeat(3000),
  'ü'.repeat(70_000),
  'a'.repeat((1 << 20) + 1),
  'lone surrogate \ud800 stays replaced',
];

describe('the UTF-8 scratch buffer', () => {
  it('gives the bytes Buffer.from gives, for every size and script, one text after another', () => {
    // In turn and twice: a later, shorter text must not show the end of an earlier one.
    for (const text of [...TEXTS, ...[...TEXTS].reverse()]) {
      expect(scratchUtf8(text).equals(plainUtf8(text))).toBe(true);
    }
  });

  it('gives bytes of their own, which the next encoding leaves as they are', () => {
    const first = scratchUtf8('é'.repeat(5000));
    scratchUtf8('x'.repeat(9000));
    expect(first.equals(Buffer.from('é'.repeat(5000)))).toBe(true);
  });
});

describe('the PostgreSQL binary COPY reader against a plain parameterized query', () => {
  let db: TestStore;
  let copy: ByteRows;
  let plain: ByteRows;
  beforeAll(async () => {
    if (!activeDialects().includes('postgres')) return;
    db = await createTestStore('postgres');
    copy = pgCopyByteRows(db.store.db, db.store.pgPool!);
    plain = pgQueryByteRows(db.store.db, db.store.pgPool!);
  });
  afterAll(async () => db?.close());

  const bothAlike = async (query: RawBuilder<unknown>, width: number) => {
    const fast = await copy(query, everything(width));
    const reference = await plain(query, everything(width));
    expect(fast).toEqual(reference);
    return fast;
  };

  itOnPostgres('reads the same bytes for texts, numbers and nulls', async () => {
    for (const text of TEXTS.filter((t) => !t.includes('\ud800'))) {
      const read = await bothAlike(
        sql`select ${text} as "t", cast(${text.length} as text) as "n", null as "none",
          cast(cast(${-2.5} as numeric) * 2 as text) as "negative"`,
        4,
      );
      expect(read.rows).toBe(1);
    }
  });

  itOnPostgres('reads the same rows in the same order, and nothing alike when nothing matches', async () => {
    await db.store.db.schema
      .createTable('fast_path_rows')
      .addColumn('id', 'integer')
      .addColumn('listing', 'text')
      .execute();
    const rows = Array.from({ length: 600 }, (_, id) => ({
      id,
      listing: `{"id":${id},"name":"Zoë ${'é'.repeat(id % 50)}"}`,
    }));
    await db.store.db
      .insertInto('fast_path_rows' as never)
      .values(rows as never)
      .execute();
    const page = await bothAlike(
      sql`select cast(count(*) over () as text) as "total", listing from fast_path_rows
        where id >= ${100} order by id desc limit ${500}`,
      2,
    );
    expect(page.rows).toBe(500);
    const none = await bothAlike(sql`select listing from fast_path_rows where id < ${0}`, 1);
    expect(none.rows).toBe(0);
  });
});

describe('FAST_PATHS', () => {
  it('takes on or off, and stops the start on anything else, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', FAST_PATHS: 'off' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'test', FAST_PATHS: 'on' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'test', FAST_PATHS: 'fast' })).toThrow(
      new ConfigError(['FAST_PATHS: expected on or off, got "fast"']),
    );
  });
});
