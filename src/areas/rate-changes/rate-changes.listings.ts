import { sql } from 'kysely';
import * as RateChangeUpdate from './rate-change-update.contract';
import { listingVersion, type ListingRow, type ListingSource } from '../../store/listings';
import { isPostgres } from '../../store/dialect';
import type { Db } from '../../store/database';
import { LISTING_SOURCE, listingOfRow } from './rate-changes.repository';

/** A sample row whose listing is part of the version: the values LISTING_SOURCE reads, in order. */
const SAMPLE_RATE_CHANGE_ROW = [
  '00000000-0000-4000-8000-000000000021',
  'f',
  '00000000-0000-4000-8000-000000000022',
  '00000000-0000-4000-8000-000000000023',
  '2031-03-30T01:30:00.000Z',
  12345,
  -1,
  '2031-04-01',
  7,
  'Ada "the first" Lovelace',
  'Ü-1',
  'Facility\u2028One',
  'Australia/Lord_Howe',
];

/** Rows whose listings one batch writes, in one short transaction. */
const BATCH = 2000;

/**
 * Raised by hand when the code that makes a listing changes in a way the sample row above does not
 * show (a sample that shows it is better: add one).
 */
const LISTING_CODE_REVISION = 1;

/** The next rate changes after `after`, by id: [id, listing] each. */
async function rateChangeListings(db: Db, after: string): Promise<[string, string][]> {
  const { rows } = await sql<Record<string, unknown>>`${sql.raw(LISTING_SOURCE)}
    where rc.id > ${after} order by rc.id limit ${sql.lit(BATCH)}`.execute(db);
  return rows.map((row) => {
    const values = Object.values(row);
    return [values[0] as string, listingOfRow(values)];
  });
}

/** The stored listings of rate changes (`rate_changes.listing`), as this release writes them. */
export const RATE_CHANGE_LISTINGS: ListingSource = {
  table: 'rate_changes',
  version: listingVersion(
    JSON.stringify(RateChangeUpdate.schema),
    LISTING_SOURCE,
    String(LISTING_CODE_REVISION),
    listingOfRow(SAMPLE_RATE_CHANGE_ROW),
  ),
  next: rateChangeListings,
  async write(db: Db, pairs: readonly ListingRow[]): Promise<void> {
    if (isPostgres(db)) {
      const column = (i: number) => pairs.map((pair) => pair[i]);
      await sql`update rate_changes set listing = v.listing
        from unnest(${column(0)}::text[], ${column(1)}::text[]) as v(id, listing)
        where rate_changes.id = v.id and rate_changes.listing is distinct from v.listing`.execute(db);
    } else {
      await sql`update rate_changes set listing = v.value ->> '$[1]'
      from json_each(${JSON.stringify(pairs)}) v
      where rate_changes.id = v.value ->> '$[0]' and rate_changes.listing is not v.value ->> '$[1]'`.execute(
        db,
      );
    }
  },
};
