import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { InvoiceableItem, RateChangeUpdate } from '../contract';
import {
  ITEM_COLUMNS,
  itemOf,
  TIER_COLUMNS,
  tierOf,
} from '../areas/invoiceable-items/invoiceable-items.repository';
import { LISTING_SOURCE, listingOfRow } from '../areas/rate-changes/rate-changes.repository';
import type { InvoiceableAmount } from '../areas/invoiceable-items/invoiceable-items.types';
import type { Db, Store } from './database';
import { isPostgres } from './dialect';

/*
 * Stored listings (the contract's JSON text of a record, kept beside its row so that a page is the
 * texts of its rows joined by the database) are written by the code of a release. Each table's
 * listings carry the version of the code that wrote them (table listing_versions): a release whose
 * listing code or contract schema differs rebuilds them, in short batches that each commit with
 * the rebuild's progress, so the service keeps answering, a second run does nothing, and a killed
 * run resumes where it stopped. `migrate` rebuilds what is stale; `serve` does too before it
 * listens; `facility-ops listings status|rebuild` shows and runs it (docs/operations.md#listings).
 */

export const LISTING_TABLES = ['invoiceable_items', 'rate_changes'] as const;
export type ListingTable = (typeof LISTING_TABLES)[number];

/**
 * Sample rows whose listings are part of the version, so a change of what is written changes it:
 * each the values of ITEM_COLUMNS (or TIER_COLUMNS) in order.
 */
const SAMPLE_ITEM_ROWS: unknown[][] = [
  [
    '00000000-0000-4000-8000-000000000001',
    'f',
    'retail',
    'LOCK',
    'Lock "disc" Ü',
    null,
    1,
    0,
    1,
    7,
    1099,
    null,
    null,
    null,
    null,
    null,
    3,
    1,
    1,
  ],
  [
    '00000000-0000-4000-8000-000000000002',
    'f',
    'insurance',
    'INS',
    'Cover',
    'c',
    0,
    1,
    0,
    0,
    1250,
    null,
    500000,
    0.6666666666666666,
    'Prov',
    'pk',
    null,
    0,
    0,
  ],
  [
    '00000000-0000-4000-8000-000000000003',
    'f',
    'fee',
    'ADM',
    'Admin',
    null,
    1,
    1,
    1,
    0,
    2000,
    'move_in',
    null,
    null,
    null,
    null,
    null,
    0,
    0,
  ],
];
const SAMPLE_TIERS: unknown[][] = [
  ['00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000001', 0, 'amount', 1099, null],
  [
    '00000000-0000-4000-8000-000000000012',
    '00000000-0000-4000-8000-000000000002',
    0,
    'percent',
    1250,
    100000,
  ],
  [
    '00000000-0000-4000-8000-000000000013',
    '00000000-0000-4000-8000-000000000002',
    1,
    'amount',
    995,
    '2500.5',
  ],
];
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

const hash = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

function sampleItemListings(): string[] {
  return SAMPLE_ITEM_ROWS.map((row) => {
    const item = itemOf(row);
    const tiers = SAMPLE_TIERS.map(tierOf).filter((tier) => tier.invoiceableItemId === item.id);
    const { text, rest } = InvoiceableItem.listing({ item, tiers });
    return `${text}|${rest}`;
  });
}

/**
 * Raised by hand when the code that makes a listing changes in a way the sample rows below do not
 * show (a sample that shows it is better: add one).
 */
const LISTING_CODE_REVISION: Readonly<Record<ListingTable, number>> = {
  invoiceable_items: 1,
  rate_changes: 1,
};

/**
 * The version of the listings this code writes: a hash of the record's contract schema, the
 * columns a listing is made from, the listings this code makes of sample rows (which follow
 * everything a listing passes through: the row's reading, money and time formatting, the contract's
 * field order), and LISTING_CODE_REVISION. Made of values, not of function sources, so a build and
 * the tests agree on it. test/store/listings.test.ts holds the versions of this release: a change
 * there is a rebuild at every operator's next upgrade, and the CHANGELOG says so.
 */
export const LISTING_VERSIONS: Readonly<Record<ListingTable, string>> = {
  invoiceable_items: hash(
    JSON.stringify(InvoiceableItem.schema),
    JSON.stringify(ITEM_COLUMNS),
    String(LISTING_CODE_REVISION.invoiceable_items),
    ...sampleItemListings(),
  ),
  rate_changes: hash(
    JSON.stringify(RateChangeUpdate.schema),
    LISTING_SOURCE,
    String(LISTING_CODE_REVISION.rate_changes),
    listingOfRow(SAMPLE_RATE_CHANGE_ROW),
  ),
};

/** Rows whose listings one batch writes, in one short transaction. */
const BATCH: Record<ListingTable, number> = { invoiceable_items: 500, rate_changes: 2000 };

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
export async function listingStates(db: Db): Promise<ListingState[]> {
  if (!(await hasVersions(db))) {
    throw new Error(
      'the database has no listing versions yet (its schema is older than this release): run `facility-ops migrate` first',
    );
  }
  const rows = await db.selectFrom('listing_versions').selectAll().execute();
  const states: ListingState[] = [];
  for (const table of LISTING_TABLES) {
    const row = rows.find((r) => r.listing === table);
    const [{ n }] = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute();
    states.push({
      table,
      stored: row?.version ?? '',
      current: LISTING_VERSIONS[table],
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
export async function rebuildListings(store: Store, options: RebuildOptions = {}): Promise<RebuildResult[]> {
  const { db } = store;
  const results: RebuildResult[] = [];
  for (const state of await listingStates(db)) {
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
        const batch = await writeBatch(trx, state.table, after);
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
 * Writes the listings of the next batch of `table`'s rows after `after` (rows whose listing is
 * already the same are left alone): how many it made and the last id, or null when none are left.
 */
async function writeBatch(
  db: Db,
  table: ListingTable,
  after: string,
): Promise<{ count: number; last: string } | null> {
  const pairs =
    table === 'rate_changes' ? await rateChangeListings(db, after) : await itemListings(db, after);
  if (pairs.length === 0) return null;
  if (isPostgres(db)) {
    const column = (i: number) => pairs.map((pair) => pair[i]);
    if (table === 'rate_changes') {
      await sql`update rate_changes set listing = v.listing
        from unnest(${column(0)}::text[], ${column(1)}::text[]) as v(id, listing)
        where rate_changes.id = v.id and rate_changes.listing is distinct from v.listing`.execute(db);
    } else {
      await sql`update invoiceable_items set listing = v.listing, listing_rest = v.rest
        from unnest(${column(0)}::text[], ${column(1)}::text[], ${column(2)}::text[]) as v(id, listing, rest)
        where invoiceable_items.id = v.id
          and (invoiceable_items.listing, invoiceable_items.listing_rest)
            is distinct from (v.listing, v.rest)`.execute(db);
    }
  } else if (table === 'rate_changes') {
    await sql`update rate_changes set listing = v.value ->> '$[1]'
      from json_each(${JSON.stringify(pairs)}) v
      where rate_changes.id = v.value ->> '$[0]' and rate_changes.listing is not v.value ->> '$[1]'`.execute(
      db,
    );
  } else {
    await sql`update invoiceable_items set listing = v.value ->> '$[1]', listing_rest = v.value ->> '$[2]'
      from json_each(${JSON.stringify(pairs)}) v
      where invoiceable_items.id = v.value ->> '$[0]'
        and (invoiceable_items.listing is not v.value ->> '$[1]'
          or invoiceable_items.listing_rest is not v.value ->> '$[2]')`.execute(db);
  }
  return { count: pairs.length, last: pairs[pairs.length - 1][0] };
}

/** The next rate changes after `after`, by id: [id, listing] each. */
async function rateChangeListings(db: Db, after: string): Promise<[string, string][]> {
  const { rows } = await sql<Record<string, unknown>>`${sql.raw(LISTING_SOURCE)}
    where rc.id > ${after} order by rc.id limit ${sql.lit(BATCH.rate_changes)}`.execute(db);
  return rows.map((row) => {
    const values = Object.values(row);
    return [values[0] as string, listingOfRow(values)];
  });
}

/** The next items after `after`, by id, with their tiers: [id, listing, rest] each. */
async function itemListings(db: Db, after: string): Promise<[string, string, string | null][]> {
  const columns = sql.join(ITEM_COLUMNS.map((column) => sql.ref(column)));
  const { rows } = await sql<Record<string, unknown>>`select ${columns} from invoiceable_items
    where id > ${after} order by id limit ${sql.lit(BATCH.invoiceable_items)}`.execute(db);
  if (rows.length === 0) return [];
  const items = rows.map((row) => itemOf(Object.values(row)));
  const tierColumns = sql.join(TIER_COLUMNS.map((column) => sql.ref(column)));
  const { rows: tierRows } = await sql<Record<string, unknown>>`select ${tierColumns} from invoiceable_amounts
    where invoiceable_item_id in (${sql.join(items.map((item) => item.id))}) order by position`.execute(db);
  const tiers = new Map<string, InvoiceableAmount[]>();
  for (const row of tierRows) {
    const tier = tierOf(Object.values(row));
    tiers.set(tier.invoiceableItemId, [...(tiers.get(tier.invoiceableItemId) ?? []), tier]);
  }
  return items.map((item) => {
    const { text, rest } = InvoiceableItem.listing({ item, tiers: tiers.get(item.id) ?? [] });
    return [item.id, text, rest];
  });
}
