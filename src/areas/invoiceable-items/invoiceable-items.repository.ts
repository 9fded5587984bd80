import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { InvoiceableItemsRepository, ItemFilter } from './invoiceable-items.ports';
import type { InvoiceableAmount, InvoiceableItem, PricedItem } from './invoiceable-items.types';
import { countedListings } from '../../store/byte-rows';
import { CompiledStatements } from '../../store/compiled-statements';
import type { ArrayRows, ByteRows, Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import type { InvoiceableAmountsTable, InvoiceableItemsTable } from '../../store/schema';

/** The columns an item is read from, in the order of ItemArray. */
export const ITEM_COLUMNS = [
  'id',
  'facility_id',
  'kind',
  'product_code',
  'description',
  'short_description',
  'required_at_move_in',
  'required_at_transfer',
  'show_in_sales_center',
  'tax_total_cents',
  'total_cents',
  'fee_category',
  'coverage_amount_cents',
  'coverage_percentage',
  'provider_name',
  'provider_key',
  'quantity',
  'is_rental_center_lock',
  'rental_center_eligible',
] as const;

type Item = InvoiceableItemsTable;

const ITEM_SELECT = sql.join(ITEM_COLUMNS.map((column) => sql.ref(column)));

/** An item as an array of ITEM_COLUMNS' values (see ArrayRows). */
export type ItemArray = [
  string,
  string,
  Item['kind'],
  string,
  string,
  string | null,
  number,
  number,
  number,
  number,
  number,
  Item['fee_category'],
  number | null,
  number | string | null,
  string | null,
  string | null,
  number | null,
  number,
  number,
];

export function itemOf(row: readonly [...ItemArray, ...unknown[]]): InvoiceableItem {
  return {
    id: row[0],
    facilityId: row[1],
    kind: row[2],
    productCode: row[3],
    description: row[4],
    shortDescription: row[5],
    requiredAtMoveIn: row[6] === 1,
    requiredAtTransfer: row[7] === 1,
    showInSalesCenter: row[8] === 1,
    taxTotalCents: row[9],
    totalCents: row[10],
    feeCategory: row[11],
    coverageAmountCents: row[12],
    coveragePercentage: row[13] === null ? null : Number(row[13]),
    providerName: row[14],
    providerKey: row[15],
    quantity: row[16],
    isRentalCenterLock: row[17] === 1,
    rentalCenterEligible: row[18] === 1,
  };
}

/** A tier as an array: id, its item's id, position, kind, amount_cents, limit_value. */
export type TierArray = [
  string,
  string,
  number,
  InvoiceableAmountsTable['kind'],
  number,
  number | string | null,
];

export function tierOf(row: TierArray): InvoiceableAmount {
  return {
    id: row[0],
    itemId: row[1],
    position: row[2],
    kind: row[3],
    amountHundredths: row[4],
    limit: row[5] === null ? null : Number(row[5]),
  };
}

const NO_LISTINGS = new Uint8Array(0);

export class SqlInvoiceableItemsRepository implements InvoiceableItemsRepository {
  private readonly postgres: boolean;

  private readonly statements: CompiledStatements;

  constructor(
    private readonly db: Db,
    private readonly arrays: ArrayRows,
    private readonly bytes: ByteRows,
  ) {
    this.postgres = isPostgres(db);
    this.statements = new CompiledStatements(db);
  }

  /**
   * Byte-order comparison on both dialects, whatever the PostgreSQL database collation; `lower`
   * under "C" folds ASCII letters only, exactly as SQLite's built-in `lower` does.
   */
  private binary(column: string, folded = false): RawBuilder<string> {
    const ref = sql.ref(column);
    if (this.postgres)
      return folded ? sql<string>`lower(${ref} collate "C")` : sql<string>`${ref} collate "C"`;
    return folded ? sql<string>`lower(${ref})` : sql<string>`${ref}`;
  }

  /** The facility's items a list holds. */
  private matching(
    facilityId: unknown,
    filter: ItemFilter,
    kind: unknown = filter.kind,
  ): RawBuilder<SqlBool> {
    return sql<SqlBool>`"facility_id" = ${facilityId}
      ${filter.kind ? sql`and "kind" = ${kind}` : sql``}
      ${filter.rentalCenterEligible ? sql`and "rental_center_eligible" = 1` : sql``}`;
  }

  /**
   * The list order: kind, then description case-insensitively, then id (the expressions of the
   * index invoiceable_items_list_order, so a page walks it).
   */
  private listOrder(): RawBuilder<unknown> {
    return sql.join([this.binary('kind'), this.binary('description', true), this.binary('id')]);
  }

  /**
   * One page with its tiers in two statements, rows as arrays: the page with the count of the
   * filter's items (a scalar subquery, read once), then the tiers of its items. Built from
   * Kysely's row objects it took three statements and twice the time. Written as SQL rather than
   * with the query builder, which took 17 us a request to compile it.
   */
  async pricedPage(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<{ total: number; entries: PricedItem[] }> {
    const where = this.matching(facilityId, filter);
    const count = sql`select count(*) from "invoiceable_items" where ${where}`;
    const rows = await this.arrays<[...ItemArray, number]>(sql`
      select ${ITEM_SELECT}, (${count}) as "total" from "invoiceable_items" where ${where}
      order by ${this.listOrder()} limit ${rowLimit(limit)} offset ${offset}`);
    if (rows.length === 0) {
      const [[total]] = await this.arrays<[number]>(count);
      return { total: Number(total), entries: [] };
    }
    const items = rows.map((row) => itemOf(row));
    const tiers = await this.tiersByItemIds(items.map((item) => item.id));
    return { total: Number(rows[0][19]), entries: items.map((item, i) => ({ item, tiers: tiers[i] })) };
  }

  /**
   * The same page as pricedPage, each item as its listing (InvoiceableItem.listing; a retail item's stored
   * quantity put between its two parts), joined into one text, with the count: by SQLite in one
   * statement, or here from PostgreSQL's rows.
   */
  async listingPage(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<{ total: number; listings: Uint8Array }> {
    // Compiled once per shape: the filters present and the page size.
    const shape = `${filter.kind ? 'kind' : '-'} ${filter.rentalCenterEligible ? 'eligible' : '-'} ${limit}`;
    const values = [facilityId, filter.kind, offset];
    const count = (slot: (index: number) => unknown) =>
      sql`(select count(*) from "invoiceable_items" where ${this.matching(slot(0), filter, slot(1))})`;
    const quantity = this.postgres ? sql`"quantity"::text` : sql`"quantity"`;
    const listing = sql`"listing" || case when "listing_rest" is null then ''
      else coalesce(${quantity}, 'null') || "listing_rest" end`;
    const page = (slot: (index: number) => unknown) => sql`from "invoiceable_items"
      where ${this.matching(slot(0), filter, slot(1))}
      order by ${this.listOrder()} limit ${rowLimit(limit)} offset ${slot(2)}`;
    if (this.postgres) {
      // PostgreSQL: the listings as rows, each with the count, joined by the store.
      const rows = this.statements.statement(
        `listings ${shape}`,
        values,
        (slot) => sql`select ${count(slot)}::text, ${listing} ${page(slot)}`,
      );
      const total = this.statements.statement(
        `count ${shape}`,
        values,
        (slot) => sql`select ${count(slot)} as "total"`,
      );
      return countedListings(this.bytes, rows, this.arrays, total);
    }
    // SQLite joins the listings in the order the page's rows come.
    const joined = this.statements.statement(
      `listings ${shape}`,
      values,
      (slot) => sql`select ${count(slot)} as "total",
        (select cast(group_concat(p."listing", ',') as blob) from (select ${listing} as "listing" ${page(slot)}) p)
        as "listings"`,
    );
    const [[total, listings]] = await this.arrays<[number, Uint8Array | null]>(joined);
    return { total, listings: listings ?? NO_LISTINGS };
  }

  /** Every item of the facility matching the filter, in list order. */
  async all(facilityId: string, filter: ItemFilter): Promise<InvoiceableItem[]> {
    const rows = await this.arrays<ItemArray>(sql`
      select ${ITEM_SELECT} from "invoiceable_items" where ${this.matching(facilityId, filter)}
      order by ${this.listOrder()}`);
    return rows.map(itemOf);
  }

  /** Items by id, in key order, null for a missing id. */
  async itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.arrays<ItemArray>(
      this.db
        .selectFrom('invoiceable_items')
        .select(ITEM_COLUMNS)
        .where('id', 'in', [...new Set(ids)]),
    );
    const byId = new Map(rows.map((row) => [row[0], itemOf(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * Amount tiers of each item, in key order ([] for none), each list in position order. The ids go
   * as one parameter, so the statement's text is the same whatever their number.
   */
  async tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]> {
    if (itemIds.length === 0) return [];
    const unique = [...new Set(itemIds)];
    const ids = this.postgres
      ? sql`= any(${unique}::text[])`
      : sql`in (select value from json_each(${JSON.stringify(unique)}))`;
    const rows = await this.arrays<TierArray>(
      this.db
        .selectFrom('invoiceable_amounts')
        .select(['id', 'invoiceable_item_id', 'position', 'kind', 'amount_cents', 'limit_value'])
        .where(sql<SqlBool>`invoiceable_item_id ${ids}`)
        .orderBy('position'),
    );
    const byItem = new Map<string, InvoiceableAmount[]>();
    for (const row of rows) {
      const tier = tierOf(row);
      const list = byItem.get(tier.itemId);
      if (list) list.push(tier);
      else byItem.set(tier.itemId, [tier]);
    }
    return itemIds.map((id) => byItem.get(id) ?? []);
  }
}
