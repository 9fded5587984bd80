import { PostgresAdapter, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function dialectOf(db: Kysely<unknown>): DialectName {
  return isPostgres(db) ? 'postgres' : 'sqlite';
}
