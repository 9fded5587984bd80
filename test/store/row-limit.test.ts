import { sql } from 'kysely';
import { rowLimit } from '../../src/store/dialect';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

describeEachDialect('rowLimit', (dialect) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await createTestStore(dialect);
  });
  afterAll(async () => db.close());

  it('writes the count into the statement, so a page size prepares one statement', async () => {
    const query = sql`select 1 as one limit ${rowLimit(500)} offset ${3}`.compile(db.store.db);
    expect(query.sql).toMatch(/limit 500 offset (\?|\$1)$/);
    expect(query.parameters).toEqual([3]);
  });

  it('limits the rows a statement gives, as a bound count did', async () => {
    const rows = await db.store.arrays<[number]>(
      sql`select n from (select 1 as n union all select 2 union all select 3) t order by n limit ${rowLimit(2)}`,
    );
    expect(rows).toEqual([[1], [2]]);
  });

  it.each([1.5, -1, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
    'refuses %p, which is no count of rows',
    (limit) => {
      expect(() => rowLimit(limit)).toThrow(RangeError);
    },
  );
});
