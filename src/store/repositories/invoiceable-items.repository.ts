import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type {
  InvoiceableItemsRepository,
  ItemFilter,
} from '../../domain/invoiceable-items/invoiceable-items.ports';
import type {
  InvoiceableAmount,
  InvoiceableItem,
} from '../../domain/invoiceable-items/invoiceable-items.types';
import type { Db } from '../database';
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

export class SqlInvoiceableItemsRepository implements InvoiceableItemsRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
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

  async count(facilityId: string, filter: ItemFilter): Promise<number> {
    const row = await this.facilityItems(facilityId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page of the facility's items matching the filter, in list order. */
  async page(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<InvoiceableItem[]> {
    const rows = await this.sorted(this.facilityItems(facilityId, filter).selectAll())
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(itemRowToItem);
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
