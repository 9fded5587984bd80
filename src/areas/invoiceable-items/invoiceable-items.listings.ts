import { sql } from 'kysely';
import * as InvoiceableItem from './invoiceable-item.contract';
import { listingVersion, type ListingRow, type ListingSource } from '../../store/listings';
import { isPostgres } from '../../store/dialect';
import type { Db } from '../../store/database';
import { ITEM_COLUMNS, itemOf, TIER_COLUMNS, tierOf } from './invoiceable-items.repository';
import type { InvoiceableAmount } from './invoiceable-items.types';

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

/** Rows whose listings one batch writes, in one short transaction. */
const BATCH = 500;

/**
 * Raised by hand when the code that makes a listing changes in a way the sample rows above do not
 * show (a sample that shows it is better: add one).
 */
const LISTING_CODE_REVISION = 1;

function sampleItemListings(): string[] {
  return SAMPLE_ITEM_ROWS.map((row) => {
    const item = itemOf(row);
    const tiers = SAMPLE_TIERS.map(tierOf).filter((tier) => tier.invoiceableItemId === item.id);
    const { text, rest } = InvoiceableItem.listing({ item, tiers });
    return `${text}|${rest}`;
  });
}

/** The next items after `after`, by id, with their tiers: [id, listing, rest] each. */
async function itemListings(db: Db, after: string): Promise<[string, string, string | null][]> {
  const columns = sql.join(ITEM_COLUMNS.map((column) => sql.ref(column)));
  const { rows } = await sql<Record<string, unknown>>`select ${columns} from invoiceable_items
    where id > ${after} order by id limit ${sql.lit(BATCH)}`.execute(db);
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

/** The stored listings of invoiceable items (`listing`, `listing_rest`), as this release writes them. */
export const INVOICEABLE_ITEM_LISTINGS: ListingSource = {
  table: 'invoiceable_items',
  version: listingVersion(
    JSON.stringify(InvoiceableItem.schema),
    JSON.stringify(ITEM_COLUMNS),
    String(LISTING_CODE_REVISION),
    ...sampleItemListings(),
  ),
  next: itemListings,
  async write(db: Db, rows: readonly ListingRow[]): Promise<void> {
    if (isPostgres(db)) {
      const column = (i: number) => rows.map((row) => row[i]);
      await sql`update invoiceable_items set listing = v.listing, listing_rest = v.rest
        from unnest(${column(0)}::text[], ${column(1)}::text[], ${column(2)}::text[]) as v(id, listing, rest)
        where invoiceable_items.id = v.id
          and (invoiceable_items.listing, invoiceable_items.listing_rest)
            is distinct from (v.listing, v.rest)`.execute(db);
    } else {
      await sql`update invoiceable_items set listing = v.value ->> '$[1]', listing_rest = v.value ->> '$[2]'
      from json_each(${JSON.stringify(rows)}) v
      where invoiceable_items.id = v.value ->> '$[0]'
        and (invoiceable_items.listing is not v.value ->> '$[1]'
          or invoiceable_items.listing_rest is not v.value ->> '$[2]')`.execute(db);
    }
  },
};
