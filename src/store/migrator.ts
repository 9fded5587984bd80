import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './database';
import { isPostgres } from './dialect';

/** A migration's file: `<UTC timestamp, 14 digits>_<snake_case name>`, the name Kysely records. */
const MIGRATION_FILE = /^[0-9]{14}_[a-z0-9_]+$/;

/**
 * The migrations are the files of ./migrations, listed when this module loads: a new migration is a
 * new file there and nothing else. They are read in the form this module runs in: `.ts` sources
 * (tests, the build-free scripts) or the build's `.js` (dist/store/migrations, which tsc writes
 * file for file, beside source maps that do not count). A file of that form whose name is not a
 * migration's is refused rather than skipped.
 */
const SOURCE = extname(__filename);
const FOLDER = join(__dirname, 'migrations');
const MIGRATION_FILES: readonly string[] = readdirSync(FOLDER)
  .filter((file) => file.endsWith(SOURCE))
  .sort();

/** Every migration's name, oldest first. */
export const MIGRATION_NAMES: readonly string[] = MIGRATION_FILES.map((file) => {
  const name = file.slice(0, -SOURCE.length);
  if (!MIGRATION_FILE.test(name)) {
    throw new Error(`${join(FOLDER, file)} is not named as a migration (<14-digit timestamp>_<name>)`);
  }
  return name;
});

/** Loads each migration when the migrator first asks for them. */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const [index, file] of MIGRATION_FILES.entries()) {
      const migration: Migration = await import(`./migrations/${file}`);
      migrations[MIGRATION_NAMES[index]] = migration;
    }
    return migrations;
  },
};

export interface MigrateOptions {
  /** PostgreSQL schema holding the migration tables; needed when several schemas share a database. */
  schema?: string;
}

/**
 * The migrator, its tables in `options.schema` or else, on PostgreSQL, in the connection's current
 * schema (the first of its search_path). Told no schema, Kysely looks for its tables in every
 * schema of the database: a second instance kept in another schema of the same database took the
 * first's tables for its own and failed.
 */
async function migrator(db: Db, options: MigrateOptions): Promise<Migrator> {
  let schema = options.schema;
  if (schema === undefined && isPostgres(db)) {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema ?? undefined;
  }
  return new Migrator({ db, provider, migrationTableSchema: schema });
}

/** Brings the database to the latest schema; throws with the failing migration's error. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await (await migrator(db, options)).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

export async function migrateDown(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const result = await (await migrator(db, options)).migrateDown();
  if (result.error) throw result.error;
  return result;
}
