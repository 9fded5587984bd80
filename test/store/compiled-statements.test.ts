import { sql } from 'kysely';
import { CompiledStatements } from '../../src/store/compiled-statements';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

describeEachDialect('CompiledStatements', (dialect) => {
  let db: TestStore;
  beforeAll(async () => {
    db = await createTestStore(dialect);
  });
  afterAll(async () => db.close());

  it('binds each call its own values, in the order the compiled text uses them', async () => {
    const statements = new CompiledStatements(db.store.db);
    let builds = 0;
    const read = (values: unknown[]) =>
      db.store.arrays<[string, string, string]>(
        statements.statement('three', values, (slot) => {
          builds += 1;
          // The values are used out of their order, and one twice.
          return sql`select cast(${slot(2)} as text) as c, cast(${slot(0)} as text) as a,
            cast(${slot(1)} as text) || cast(${slot(0)} as text) as ba`;
        }),
      );
    expect(await read(['a', 'b', 'c'])).toEqual([['c', 'a', 'ba']]);
    expect(await read(['x', "y'", 'z'])).toEqual([['z', 'x', "y'x"]]);
    expect(builds).toBe(1);
  });

  it('compiles each shape on its own', async () => {
    const statements = new CompiledStatements(db.store.db);
    const read = (shape: string, extra: boolean) =>
      db.store.arrays<[number]>(
        statements.statement(shape, [1, 2], (slot) =>
          extra
            ? sql`select cast(${slot(0)} as integer) + cast(${slot(1)} as integer) as n`
            : sql`select cast(${slot(0)} as integer) as n`,
        ),
      );
    expect((await read('one', false))[0].map(Number)).toEqual([1]);
    expect((await read('both', true))[0].map(Number)).toEqual([3]);
  });

  it('refuses a statement that binds a value of its own instead of a slot', () => {
    const statements = new CompiledStatements(db.store.db);
    expect(() => statements.statement('own value', [1], (slot) => sql`select ${slot(0)}, ${5}`)).toThrow(
      /binds a value that is not a slot/,
    );
  });
});
