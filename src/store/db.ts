import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema';
import type { DomainEvents } from '../kernel/domain-events';

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
  /** The text is fixed per shape and its plan does not depend on the values (see PreparedNames). */
  readonly reusable?: boolean;
}) => Promise<R[]>;

/**
 * The events a repository publishes with the change it writes: each listener writes them on the
 * change's transaction (src/kernel/domain-events.ts; src/modules.ts subscribes the listeners).
 */
export type StoreEvents = DomainEvents<Db>;
