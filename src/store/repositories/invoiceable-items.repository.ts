import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../database';
import { isPostgres } from '../dialect';
import type {
  Database,
  InvoiceableAmountsTable,
  InvoiceableItemsTable,
  InvoiceableItemKind,
} from '../schema';

export type InvoiceableItemRow = InvoiceableItemsTable;
export type InvoiceableAmountRow = InvoiceableAmountsTable;

/** Which of a facility's items a list holds. */
export interface ItemFilter {
  kind?: InvoiceableItemKind;
  rentalCenterEligible?: boolean;
}

export class InvoiceableItemsRepository {
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
  page(facilityId: string, filter: ItemFilter, limit: number, offset: number): Promise<InvoiceableItemRow[]> {
    return this.sorted(this.facilityItems(facilityId, filter).selectAll())
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Every item of the facility matching the filter, in list order. */
  all(facilityId: string, filter: ItemFilter): Promise<InvoiceableItemRow[]> {
    return this.sorted(this.facilityItems(facilityId, filter).selectAll()).execute();
  }

  /** Items by id, in key order, null for a missing id. */
  async itemsByIds(ids: readonly string[]): Promise<(InvoiceableItemRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_items')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Amount tiers of each item, in key order ([] for none), each list in position order. */
  async tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmountRow[][]> {
    if (itemIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_amounts')
      .selectAll()
      .where('invoiceable_item_id', 'in', [...new Set(itemIds)])
      .orderBy('position')
      .execute();
    const byItem = new Map<string, InvoiceableAmountRow[]>();
    for (const row of rows) {
      const list = byItem.get(row.invoiceable_item_id);
      if (list) list.push(row);
      else byItem.set(row.invoiceable_item_id, [row]);
    }
    return itemIds.map((id) => byItem.get(id) ?? []);
  }
}
