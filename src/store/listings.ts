import { createHash } from 'node:crypto';
import type { Db, Store } from './database';
import type { Database } from './schema';

/*
 * Stored listings (the contract's JSON text of a record, kept beside its row so that a page is the
 * texts of its rows joined by the database) are written by the code of a release. Each table's
 * listings carry the version of the code that wrote them (table listing_versions): a release whose
 * listing code or contract schema differs rebuilds them, in short batches that each commit with
 * the rebuild's progress, so the service keeps answering, a second run does nothing, and a killed
 * run resumes where it stopped. `migrate` rebuilds what is stale; `serve` does too before it
 * listens; `facility-ops listings status|rebuild` shows and runs it (docs/operations.md#listings).
 */

/** A table whose rows keep their listing, as the area that owns it writes it (its module hands it in). */
export interface ListingSource {
  readonly table: ListingTable;
  /**
   * The version of the listings this code writes (`listingVersion` of what they are made from):
   * test/cli/listings.test.ts holds the versions of this release.
   */
  readonly version: string;
  /** The listings of the next batch of rows after `after`, by id: each its id, then what is written. */
  next(db: Db, after: string): Promise<ListingRow[]>;
  /** Writes a batch's listings; a row whose listing is already the same is left alone. */
  write(db: Db, rows: readonly ListingRow[]): Promise<void>;
}

/** A table that keeps listings. */
export type ListingTable = keyof Database & string;

/** A row's id and what its listing columns are written with. */
export type ListingRow = readonly [string, ...(string | null)[]];

/**
 * The version of listings made from `parts`: the record's contract schema, the columns a listing is
 * made from, the listings the code makes of sample rows (which follow everything a listing passes
 * through: the row's reading, money and time formatting, the contract's field order), and a
 * revision raised by hand. Made of values, not of function sources, so a build and the tests agree
 * on it; a change is a rebuild at every operator's next upgrade, and the CHANGELOG says so.
 */
export function listingVersion(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
}

export interface ListingState {
  table: ListingTable;
  /** The version the table's listings are of ('' when stored before versions were kept). */
  stored: string;
  /** The version this release writes. */
  current: string;
  /** A rebuild under way (perhaps stopped): the version it writes and the listings it has written. */
  rebuilding: { version: string; written: number } | null;
  /** Rows of the table. */
  rows: number;
}

export const isStale = (state: ListingState): boolean => state.stored !== state.current;

/** Whether the schema has the listing versions yet (migration 20261128130000_listing_versions). */
async function hasVersions(db: Db): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((table) => table.name === 'listing_versions');
}

/** Each table's listings: the version stored, the one this release writes, a rebuild under way. */
export async function listingStates(db: Db, sources: readonly ListingSource[]): Promise<ListingState[]> {
  if (!(await hasVersions(db))) {
    throw new Error(
      'the database has no listing versions yet (its schema is older than this release): run `facility-ops migrate` first',
    );
  }
  const rows = await db.selectFrom('listing_versions').selectAll().execute();
  const states: ListingState[] = [];
  for (const { table, version } of sources) {
    const row = rows.find((r) => r.listing === table);
    const [{ n }] = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute();
    states.push({
      table,
      stored: row?.version ?? '',
      current: version,
      rebuilding:
        row?.rebuilding != null ? { version: row.rebuilding, written: Number(row.rebuilt ?? 0) } : null,
      rows: Number(n),
    });
  }
  return states;
}

export interface RebuildOptions {
  /** Rebuild the tables whose listings are current too. */
  all?: boolean;
  /** Told after each committed batch: the table and the listings written so far. */
  onBatch?: (table: ListingTable, written: number) => void;
}

export interface RebuildResult {
  table: ListingTable;
  version: string;
  written: number;
  /** Whether it went on from a rebuild that had stopped. */
  resumed: boolean;
}

/**
 * Rebuilds the stale listings (or all, with `all`) with this release's code. Each batch writes its
 * rows' listings and the rebuild's progress in one transaction; a rebuild to the same version that
 * stopped (killed) goes on after the last id it wrote.
 */
export async function rebuildListings(
  store: Store,
  sources: readonly ListingSource[],
  options: RebuildOptions = {},
): Promise<RebuildResult[]> {
  const { db } = store;
  const results: RebuildResult[] = [];
  for (const state of await listingStates(db, sources)) {
    const source = sources.find((s) => s.table === state.table)!;
    const version = state.current;
    const resuming = state.rebuilding?.version === version;
    if (!resuming && !isStale(state) && !options.all) {
      // A stopped rebuild to another release's version: this release's listings are in place.
      if (state.rebuilding) {
        await db
          .updateTable('listing_versions')
          .set({ rebuilding: null, after_id: null, rebuilt: 0 })
          .where('listing', '=', state.table)
          .execute();
      }
      continue;
    }
    if (!resuming) {
      await db
        .updateTable('listing_versions')
        .set({ rebuilding: version, after_id: '', rebuilt: 0 })
        .where('listing', '=', state.table)
        .execute();
    }
    let after =
      (
        await db
          .selectFrom('listing_versions')
          .select('after_id')
          .where('listing', '=', state.table)
          .executeTakeFirst()
      )?.after_id ?? '';
    let written = resuming ? (state.rebuilding?.written ?? 0) : 0;
    for (;;) {
      const last = await db.transaction().execute(async (trx) => {
        const batch = await writeBatch(trx, source, after);
        if (batch === null) return null;
        await trx
          .updateTable('listing_versions')
          .set((eb) => ({ after_id: batch.last, rebuilt: eb('rebuilt', '+', batch.count) }))
          .where('listing', '=', state.table)
          .execute();
        return batch;
      });
      if (last === null) break;
      after = last.last;
      written += last.count;
      options.onBatch?.(state.table, written);
    }
    await db
      .updateTable('listing_versions')
      .set({ version, rebuilding: null, after_id: null, rebuilt: 0 })
      .where('listing', '=', state.table)
      .execute();
    results.push({ table: state.table, version, written, resumed: resuming });
  }
  return results;
}

/**
 * Writes the listings of the next batch of the source's rows after `after` (rows whose listing is
 * already the same are left alone): how many it made and the last id, or null when none are left.
 */
async function writeBatch(
  db: Db,
  source: ListingSource,
  after: string,
): Promise<{ count: number; last: string } | null> {
  const rows = await source.next(db, after);
  if (rows.length === 0) return null;
  await source.write(db, rows);
  return { count: rows.length, last: rows[rows.length - 1][0] };
}
