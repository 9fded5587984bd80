import { sql } from 'kysely';
import type { Db } from './database';
import { MIGRATION_NAMES } from './migrator';

/**
 * The database was migrated by a newer release: it holds a migration this code does not know.
 * Serving or migrating it with older code could misread what the newer one wrote.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly migrations: string[]) {
    super(
      `the database was migrated by a newer release of facility-ops: migration ${migrations[0]}` +
        `${migrations.length > 1 ? ` (and ${migrations.length - 1} more)` : ''} is not one this release knows; ` +
        'run the release that migrated it, or restore a backup made before it (docs/operations.md#upgrades)',
    );
  }
}

/** The migrations the database has run that this code does not know, oldest first. */
export async function unknownMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  const known = new Set(MIGRATION_NAMES);
  return rows.map((row) => row.name).filter((name) => !known.has(name));
}

/** Refuses, in one line naming the first, a database holding migrations this code does not know. */
export async function refuseNewerDatabase(db: Db): Promise<void> {
  const unknown = await unknownMigrations(db);
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
}
