import { CompiledQuery, sql } from 'kysely';
import type { ByteTable } from '../../src/store/byte-rows';
import { BinaryCopyTable, COPY_KEPT_BYTES, withLiterals } from '../../src/fast-paths/pg-binary-copy';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

// Texts a page of listings holds, and texts that would break a statement if a parameter were not
// turned into a literal with care.
const TEXTS = [
  'plain',
  'Zoë García — 東京',
  "it's",
  "'); drop table rate_changes; --",
  "back\\slash \\x41 and E'\\\\'",
  '$1 and $2',
  '',
];

/** Inside the read: the row count, and every value of `width` columns as bytes of their own. */
const copied = (width: number) => (table: ByteTable) => ({
  rows: table.rows,
  values: Array.from({ length: table.rows }, (_, row) =>
    Array.from({ length: width }, (_, column) => {
      const value = table.value(row, column);
      return value === null ? null : Buffer.from(value);
    }),
  ),
});

describeEachDialect('ByteRows', (dialect) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await createTestStore(dialect);
  });
  afterAll(async () => db.close());

  it('gives each text column as its UTF-8 bytes, a number as its digits, null as null', async () => {
    for (const text of TEXTS) {
      const rows = await db.store.bytes(
        sql`select ${text} as "text", cast(cast(${text.length} as integer) as text) as "length", null as "none"`,
        copied(3),
      );
      expect(rows.rows).toBe(1);
      expect(rows.values[0][0]?.equals(Buffer.from(text))).toBe(true);
      expect(rows.values[0][1]?.toString()).toBe(String(text.length));
      expect(rows.values[0][2]).toBeNull();
    }
  });

  it('reads many rows, a long text among them, in their order', async () => {
    const long = 'Zoë,'.repeat(100_000);
    const rows = await db.store.bytes(
      sql`select ${long} as "t" union all select ${'second'} union all select ${'third'}`,
      copied(1),
    );
    expect(rows.rows).toBe(3);
    expect([0, 1, 2].map((row) => rows.values[row][0]?.toString())).toEqual([long, 'second', 'third']);
  });

  it('joins a column of every row with a separator, a null as empty; no rows join to nothing', async () => {
    const joins = await db.store.bytes(
      sql`select ${'1'} as "n", ${'{"a":"é"}'} as "t"
        union all select ${'2'}, null union all select ${'3'}, ${'{"b":2}'}`,
      (rows) => [rows.joined(1, 0x2c), rows.joined(0, 0x2c)],
    );
    expect(joins[0].toString()).toBe('{"a":"é"},,{"b":2}');
    expect(joins[1].toString()).toBe('1,2,3');
    const none = await db.store.bytes(sql`select ${'x'} as "t" where 1 = 0`, (rows) => ({
      rows: rows.rows,
      joined: rows.joined(0, 0x2c),
    }));
    expect(none.rows).toBe(0);
    expect(none.joined).toHaveLength(0);
  });

  it('gives joined bytes of their own, which later reads leave as they are', async () => {
    // Sequential reads: PostgreSQL's reads reuse their connection's buffer.
    const first = await db.store.bytes(sql`select ${'é'.repeat(1000)} as "t"`, (rows) =>
      rows.joined(0, 0x2c),
    );
    for (let read = 0; read < 12; read++) {
      const other = await db.store.bytes(sql`select ${'x'.repeat(3000 + read)} as "t"`, (rows) =>
        rows.joined(0, 0x2c),
      );
      expect(other.toString()).toBe('x'.repeat(3000 + read));
    }
    expect(first.toString()).toBe('é'.repeat(1000));
  });

  it('passes numbers, negative ones included, as the values they are', async () => {
    const rows = await db.store.bytes(
      sql`select cast(cast(10-${-3} as integer) as text) as "difference", cast(${2.5} * 2 as text) as "product"`,
      copied(2),
    );
    expect([0, 1].map((column) => rows.values[0][column]?.toString())).toEqual(['13', '5.0']);
  });

  it('rejects a failing statement, and the store answers the next one', async () => {
    // By its message: better-sqlite3's error class may come from another test file's realm.
    await expect(db.store.bytes(sql`select * from no_such_table`, copied(1))).rejects.toMatchObject({
      message: expect.stringMatching(/no_such_table/),
    });
    const rows = await db.store.bytes(sql`select ${'after'} as "t"`, copied(1));
    expect(rows.values[0][0]?.toString()).toBe('after');
  });

  it('reads a larger output than a connection keeps room for, and the next read after it', async () => {
    const long = 'ü'.repeat(COPY_KEPT_BYTES);
    const rows = await db.store.bytes(sql`select ${long} as "t"`, copied(1));
    expect(rows.values[0][0]?.toString()).toBe(long);
    const after = await db.store.bytes(sql`select ${'after'} as "t"`, copied(1));
    expect(after.values[0][0]?.toString()).toBe('after');
  });
});

describe('withLiterals', () => {
  it('replaces each placeholder by its literal, even past $9', () => {
    const parameters = Array.from({ length: 11 }, (_, i) => `v${i + 1}`);
    const text = parameters.map((_, i) => `$${i + 1}`).join(', ');
    expect(withLiterals(CompiledQuery.raw(text, parameters))).toBe(
      parameters.map((p) => `'${p}'`).join(', '),
    );
  });

  it('refuses a value it has no literal for, and a placeholder with no value', () => {
    expect(() => withLiterals(CompiledQuery.raw('select $1', [{}]))).toThrow(TypeError);
    expect(() => withLiterals(CompiledQuery.raw('select $1', [['a']]))).toThrow(TypeError);
    expect(() => withLiterals(CompiledQuery.raw('select $2', ['a']))).toThrow(RangeError);
  });
});

describe('BinaryCopyTable', () => {
  it('refuses bytes that are not a binary COPY', () => {
    expect(() => new BinaryCopyTable(Buffer.from('id,name\n1,a\n'))).toThrow(/signature/);
  });
});
