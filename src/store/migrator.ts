import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database';
import * as initial from './migrations/20261121120000_initial';

/** Migrations in order, listed here so bundles and tests need no directory scan. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121120000_initial': initial,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider });
}

/** Brings the database to the latest schema; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

export async function migrateDown(db: Db): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateDown();
  if (result.error) throw result.error;
  return result;
}
