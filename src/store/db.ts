import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema';

/** The store's database, as Kysely types its tables. */
export type Db = Kysely<Database>;

/**
 * Runs a read whose rows come back as arrays of column values in select order, with no object per
 * row: better-sqlite3's raw mode and pg's array row mode. A cold 500-row page of rate changes spent
 * a third of its time making row objects the repository then copied. Give every selected column
 * its own name: the fallback below goes through Kysely's row objects.
 */
export type ArrayRows = <R extends readonly unknown[]>(query: {
  compile(db: Db): CompiledQuery;
}) => Promise<R[]>;
