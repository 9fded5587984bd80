import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type {
  InvoiceableItemsRepository,
  ItemFilter,
} from '../../domain/invoiceable-items/invoiceable-items.ports';
import type {
  InvoiceableAmount,
  InvoiceableItem,
  PricedItem,
} from '../../domain/invoiceable-items/invoiceable-items.types';
import type { ArrayRows, Db } from '../database';
import { isPostgres } from '../dialect';
import type { Database, InvoiceableAmountsTable, InvoiceableItemsTable } from '../schema';

export type InvoiceableItemRow = InvoiceableItemsTable;
export type InvoiceableAmountRow = InvoiceableAmountsTable;

export function itemRowToItem(row: InvoiceableItemRow): InvoiceableItem {
  return {
    id: row.id,
    facilityId: row.facility_id,
    kind: row.kind,
    productCode: row.product_code,
    description: row.description,
    shortDescription: row.short_description,
    requiredAtMoveIn: row.required_at_move_in === 1,
    requiredAtTransfer: row.required_at_transfer === 1,
    showInSalesCenter: row.show_in_sales_center === 1,
    taxTotalCents: row.tax_total_cents,
    totalCents: row.total_cents,
    feeCategory: row.fee_category,
    coverageAmountCents: row.coverage_amount_cents,
    coveragePercentage: row.coverage_percentage === null ? null : Number(row.coverage_percentage),
    providerName: row.provider_name,
    providerKey: row.provider_key,
    quantity: row.quantity,
    isRentalCenterLock: row.is_rental_center_lock === 1,
    rentalCenterEligible: row.rental_center_eligible === 1,
  };
}

export function amountRowToAmount(row: InvoiceableAmountRow): InvoiceableAmount {
  return {
    id: row.id,
    itemId: row.invoiceable_item_id,
    position: row.position,
    kind: row.kind,
    amountHundredths: row.amount_cents,
    limit: row.limit_value === null ? null : Number(row.limit_value),
  };
}

/**
 * An item of a known facility as an array, in ITEM_COLUMNS' order, then the number of items the
 * page's filter matches.
 */
type ItemArray = [
  string,
  InvoiceableItemRow['kind'],
  string,
  string,
  string | null,
  number,
  number,
  number,
  number,
  number,
  InvoiceableItemRow['fee_category'],
  number | null,
  number | string | null,
  string | null,
  string | null,
  number | null,
  number,
  number,
  number,
];

const ITEM_COLUMNS = sql`id, kind, product_code, description, short_description, required_at_move_in,
  required_at_transfer, show_in_sales_center, tax_total_cents, total_cents, fee_category,
  coverage_amount_cents, coverage_percentage, provider_name, provider_key, quantity,
  is_rental_center_lock, rental_center_eligible`;

function itemOf(facilityId: string, row: ItemArray): InvoiceableItem {
  return {
    id: row[0],
    facilityId,
    kind: row[1],
    productCode: row[2],
    description: row[3],
    shortDescription: row[4],
    requiredAtMoveIn: row[5] === 1,
    requiredAtTransfer: row[6] === 1,
    showInSalesCenter: row[7] === 1,
    taxTotalCents: row[8],
    totalCents: row[9],
    feeCategory: row[10],
    coverageAmountCents: row[11],
    coveragePercentage: row[12] === null ? null : Number(row[12]),
    providerName: row[13],
    providerKey: row[14],
    quantity: row[15],
    isRentalCenterLock: row[16] === 1,
    rentalCenterEligible: row[17] === 1,
  };
}

/** A tier as an array: id, its item's id, position, kind, amount_cents, limit_value. */
type TierArray = [string, string, number, InvoiceableAmountRow['kind'], number, number | string | null];

export class SqlInvoiceableItemsRepository implements InvoiceableItemsRepository {
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    private readonly arrays: ArrayRows,
  ) {
    this.postgres = isPostgres(db);
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

  private facilityItems(facilityId: string, filter: ItemFilter) {
    let query = this.db.selectFrom('invoiceable_items').where('facility_id', '=', facilityId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.rentalCenterEligible) query = query.where('rental_center_eligible', '=', 1);
    return query;
  }

  /** The list order: kind, then description case-insensitively, then id. */
  private sorted<O>(query: SelectQueryBuilder<Database, 'invoiceable_items', O>) {
    return query
      .orderBy(this.binary('kind'))
      .orderBy(this.binary('description', true))
      .orderBy(this.binary('id'));
  }

  /**
   * One page with its tiers in two statements, rows as arrays: the page with the count of the
   * filter's items (a scalar subquery, read once), then the tiers of its items. Built from
   * Kysely's row objects it took three statements and twice the time.
   */
  async pricedPage(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<{ total: number; entries: PricedItem[] }> {
    const where = sql`facility_id = ${facilityId}
      ${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
      ${filter.rentalCenterEligible ? sql`and rental_center_eligible = 1` : sql``}`;
    const order = this.postgres
      ? sql`kind collate "C", lower(description collate "C"), id collate "C"`
      : sql`kind, lower(description), id`;
    const rows = await this.arrays<ItemArray>(sql`
      select ${ITEM_COLUMNS}, (select count(*) from invoiceable_items where ${where}) as total
      from invoiceable_items where ${where}
      order by ${order} limit ${limit} offset ${offset}`);
    if (rows.length === 0) {
      const [[total]] = await this.arrays<[number]>(
        sql`select count(*) from invoiceable_items where ${where}`,
      );
      return { total: Number(total), entries: [] };
    }
    const items = rows.map((row) => itemOf(facilityId, row));
    const tiers = await this.tierArrays(items.map((item) => item.id));
    return { total: Number(rows[0][18]), entries: items.map((item, i) => ({ item, tiers: tiers[i] })) };
  }

  /** Amount tiers of each item, in key order ([] for none), each list in position order. */
  private async tierArrays(itemIds: readonly string[]): Promise<InvoiceableAmount[][]> {
    const ids = this.postgres
      ? sql`any(${[...itemIds]}::text[])`
      : sql`(select value from json_each(${JSON.stringify(itemIds)}))`;
    const rows = await this.arrays<TierArray>(sql`
      select id, invoiceable_item_id, position, kind, amount_cents, limit_value from invoiceable_amounts
      where invoiceable_item_id ${this.postgres ? sql`=` : sql`in`} ${ids} order by position`);
    const byItem = new Map<string, InvoiceableAmount[]>();
    for (const row of rows) {
      const tier: InvoiceableAmount = {
        id: row[0],
        itemId: row[1],
        position: row[2],
        kind: row[3],
        amountHundredths: row[4],
        limit: row[5] === null ? null : Number(row[5]),
      };
      const list = byItem.get(tier.itemId);
      if (list) list.push(tier);
      else byItem.set(tier.itemId, [tier]);
    }
    return itemIds.map((id) => byItem.get(id) ?? []);
  }

  /** Every item of the facility matching the filter, in list order. */
  async all(facilityId: string, filter: ItemFilter): Promise<InvoiceableItem[]> {
    const rows = await this.sorted(this.facilityItems(facilityId, filter).selectAll()).execute();
    return rows.map(itemRowToItem);
  }

  /** Items by id, in key order, null for a missing id. */
  async itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_items')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, itemRowToItem(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Amount tiers of each item, in key order ([] for none), each list in position order. */
  async tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]> {
    if (itemIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_amounts')
      .selectAll()
      .where('invoiceable_item_id', 'in', [...new Set(itemIds)])
      .orderBy('position')
      .execute();
    const byItem = new Map<string, InvoiceableAmount[]>();
    for (const row of rows) {
      const list = byItem.get(row.invoiceable_item_id);
      if (list) list.push(amountRowToAmount(row));
      else byItem.set(row.invoiceable_item_id, [amountRowToAmount(row)]);
    }
    return itemIds.map((id) => byItem.get(id) ?? []);
  }
}
