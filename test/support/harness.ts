import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openStore, type Store } from '../../src/store/database';
import { migrateToLatest } from '../../src/store/migrator';
import { POSTGRES_URL } from './dialects';

export type Dialect = 'sqlite' | 'postgres';

export function activeDialects(): Dialect[] {
  const raw = process.env.ACTIVE_DIALECTS ?? 'sqlite';
  return raw.split(',').filter((d): d is Dialect => d === 'sqlite' || d === 'postgres');
}

export interface TestStore {
  store: Store;
  /** SQL statements run since the last reset (for batching tests). */
  queries: string[];
  close(): Promise<void>;
}

/**
 * A fresh, migrated database: SQLite in memory, or a PostgreSQL schema of its own that is dropped
 * on close, so test files running in parallel never meet.
 */
export async function createTestStore(dialect: Dialect): Promise<TestStore> {
  const queries: string[] = [];
  const onQuery = (sqlText: string) => queries.push(sqlText);
  if (dialect === 'sqlite') {
    const store = openStore('sqlite::memory:', { onQuery });
    await migrateToLatest(store.db);
    queries.length = 0;
    return { store, queries, close: () => store.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const store = openStore(POSTGRES_URL, { pgSchema: schema, onQuery });
  await migrateToLatest(store.db, { schema });
  queries.length = 0;
  return {
    store,
    queries,
    close: async () => {
      await store.close();
      const cleanup = new Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}

/** Runs the block once per active dialect, with a fresh database for each. */
export function describeEachDialect(name: string, block: (dialect: Dialect) => void): void {
  for (const dialect of activeDialects()) {
    describe(`${name} [${dialect}]`, () => block(dialect));
  }
}

/**
 * A test that needs PostgreSQL: run when it is an active dialect, else skipped under a name that
 * says why.
 */
export function itOnPostgres(name: string, test: () => Promise<void>, timeout?: number): void {
  if (activeDialects().includes('postgres')) it(name, test, timeout);
  else it.skip(`${name} (SKIPPED: PostgreSQL did not answer, or DIALECTS leaves it out)`, test, timeout);
}
