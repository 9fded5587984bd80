import { PostgresAdapter } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Any Kysely instance or transaction, whatever its table types. */
interface HasAdapter {
  getExecutor(): { adapter: unknown };
}

export function isPostgres(db: HasAdapter): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function dialectOf(db: HasAdapter): DialectName {
  return isPostgres(db) ? 'postgres' : 'sqlite';
}
