import { CompiledQuery, sql } from 'kysely';
import { BinaryCopyTable, withLiterals } from '../../src/store/byte-rows';
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
      );
      expect(rows.rows).toBe(1);
      expect(rows.value(0, 0)?.equals(Buffer.from(text))).toBe(true);
      expect(rows.value(0, 1)?.toString()).toBe(String(text.length));
      expect(rows.value(0, 2)).toBeNull();
    }
  });

  it('reads many rows, a long text among them, in their order', async () => {
    const long = 'Zoë,'.repeat(100_000);
    const rows = await db.store.bytes(
      sql`select ${long} as "t" union all select ${'second'} union all select ${'third'}`,
    );
    expect(rows.rows).toBe(3);
    expect([0, 1, 2].map((row) => rows.value(row, 0)?.toString())).toEqual([long, 'second', 'third']);
  });

  it('joins a column of every row with a separator, a null as empty; no rows join to nothing', async () => {
    const rows = await db.store.bytes(sql`select ${'1'} as "n", ${'{"a":"é"}'} as "t"
      union all select ${'2'}, null union all select ${'3'}, ${'{"b":2}'}`);
    expect(rows.joined(1, 0x2c).toString()).toBe('{"a":"é"},,{"b":2}');
    expect(rows.joined(0, 0x2c).toString()).toBe('1,2,3');
    const none = await db.store.bytes(sql`select ${'x'} as "t" where 1 = 0`);
    expect(none.rows).toBe(0);
    expect(none.joined(0, 0x2c)).toHaveLength(0);
  });

  it('passes numbers, negative ones included, as the values they are', async () => {
    const rows = await db.store.bytes(
      sql`select cast(cast(10-${-3} as integer) as text) as "difference", cast(${2.5} * 2 as text) as "product"`,
    );
    expect([0, 1].map((column) => rows.value(0, column)?.toString())).toEqual(['13', '5.0']);
  });

  it('rejects a failing statement, and the store answers the next one', async () => {
    // By its message: better-sqlite3's error class may come from another test file's realm.
    await expect(db.store.bytes(sql`select * from no_such_table`)).rejects.toMatchObject({
      message: expect.stringMatching(/no_such_table/),
    });
    const rows = await db.store.bytes(sql`select ${'after'} as "t"`);
    expect(rows.value(0, 0)?.toString()).toBe('after');
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
