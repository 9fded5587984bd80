import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { InvoiceableItemsRepository, ItemFilter } from './invoiceable-items.ports';
import { ITEM_LISTING_COLUMNS, invoiceableAmounts, invoiceableItems } from './invoiceable-items.tables';
import type { InvoiceableAmount, InvoiceableItem, PricedItem } from './invoiceable-items.types';
import { countedListings } from '../../store/byte-rows';
import { CompiledStatements, reusable } from '../../store/compiled-statements';
import type { ArrayRows, ByteRows, Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { arrayReader, rowCodec } from '../../store/rows';
import { keysetParts, sliceOfRows } from '../../store/keyset';
import type { Keyset, Slice, SliceRequest } from '../../kernel/connections';

/** The columns an item is read from, in the declared order (its stored listing left out). */
export const ITEM_COLUMNS = rowCodec(invoiceableItems, ITEM_LISTING_COLUMNS).columns;

/** An item read from an array of ITEM_COLUMNS' values (see ArrayRows). */
export const itemOf = arrayReader(invoiceableItems, ITEM_LISTING_COLUMNS);

/** The columns a tier is read from, in the declared order. */
export const TIER_COLUMNS = rowCodec(invoiceableAmounts).columns;

/** A tier read from an array of TIER_COLUMNS' values. */
export const tierOf = arrayReader(invoiceableAmounts);

const ITEM_SELECT = sql.join(ITEM_COLUMNS.map((column) => sql.ref(column)));

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
    return sql.join(this.orderExpressions());
  }

  /**
   * A page's LIMIT for a statement kept prepared: a parameter on PostgreSQL, so one text serves
   * every page size and callers choosing sizes cannot use up the pool's prepared names
   * (src/fast-paths/pg-prepared.ts); written into the text on SQLite (see rowLimit). `value` is
   * what PostgreSQL binds: the limit, or a compiled statement's slot for it.
   */
  private pageLimit(limit: number, value: unknown = limit): RawBuilder<unknown> {
    return this.postgres ? sql`${value}` : rowLimit(limit);
  }

  /** The list order's expressions, one by one (a position of the list holds their values). */
  private orderExpressions(): RawBuilder<string>[] {
    return [this.binary('kind'), this.binary('description', true), this.binary('id')];
  }

  /**
   * A slice of the list from a position, with its tiers: the rows past the position along
   * invoiceable_items_list_order (a seek, then `limit` entries, however deep the position), each
   * with its position, and how many items the filter holds.
   */
  async pricedSlice(facilityId: string, filter: ItemFilter, slice: SliceRequest): Promise<Slice<PricedItem>> {
    const where = this.matching(facilityId, filter);
    const order = this.orderExpressions();
    const keyset = keysetParts(order, slice);
    const [rows, [[total]]] = await Promise.all([
      this.arrays<unknown[]>(sql`
        select ${ITEM_SELECT}, ${sql.join(order)} from "invoiceable_items" where ${where} and ${keyset.where}
        order by ${keyset.orderBy} limit ${rowLimit(slice.limit + 1)}`),
      this.arrays<[number]>(sql`select count(*) from "invoiceable_items" where ${where}`),
    ]);
    const { rows: kept, more } = sliceOfRows(rows, slice);
    const items = kept.map(itemOf);
    const tiers = await this.tiersByItemIds(items.map((item) => item.id));
    return {
      entries: items.map((item, i) => ({ item, tiers: tiers[i] })),
      keys: kept.map((row) => row.slice(ITEM_COLUMNS.length) as unknown as Keyset),
      more,
      total: Number(total),
    };
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
    // Kept prepared on PostgreSQL, as every read of one facility's items may be.
    const rows = await this.arrays<unknown[]>(
      reusable(sql`
      select ${ITEM_SELECT}, (${count}) as "total" from "invoiceable_items" where ${where}
      order by ${this.listOrder()} limit ${this.pageLimit(limit)} offset ${offset}`),
    );
    if (rows.length === 0) {
      const [[total]] = await this.arrays<[number]>(reusable(count));
      return { total: Number(total), entries: [] };
    }
    const items = rows.map(itemOf);
    const tiers = await this.tiersByItemIds(items.map((item) => item.id));
    // The count comes after the item's columns.
    const total = Number(rows[0][ITEM_COLUMNS.length]);
    return { total, entries: items.map((item, i) => ({ item, tiers: tiers[i] })) };
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
    // Compiled once per shape: the filters present and, on SQLite, the page size (a literal there;
    // a parameter on PostgreSQL, the fourth value).
    const filters = `${filter.kind ? 'kind' : '-'} ${filter.rentalCenterEligible ? 'eligible' : '-'}`;
    const shape = this.postgres ? filters : `${filters} ${limit}`;
    const values = [facilityId, filter.kind, offset, limit];
    const count = (slot: (index: number) => unknown) =>
      sql`(select count(*) from "invoiceable_items" where ${this.matching(slot(0), filter, slot(1))})`;
    const quantity = this.postgres ? sql`"quantity"::text` : sql`"quantity"`;
    const listing = sql`"listing" || case when "listing_rest" is null then ''
      else coalesce(${quantity}, 'null') || "listing_rest" end`;
    const page = (slot: (index: number) => unknown) => sql`from "invoiceable_items"
      where ${this.matching(slot(0), filter, slot(1))}
      order by ${this.listOrder()} limit ${this.pageLimit(limit, slot(3))} offset ${slot(2)}`;
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
    const rows = await this.arrays<unknown[]>(sql`
      select ${ITEM_SELECT} from "invoiceable_items" where ${this.matching(facilityId, filter)}
      order by ${this.listOrder()}`);
    return rows.map(itemOf);
  }

  /** Items by id, in key order, null for a missing id. */
  async itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.arrays<unknown[]>(
      this.db
        .selectFrom('invoiceable_items')
        .select(ITEM_COLUMNS)
        .where('id', 'in', [...new Set(ids)]),
    );
    const byId = new Map(
      rows.map((row) => {
        const item = itemOf(row);
        return [item.id, item];
      }),
    );
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
    // The ids go as one parameter, so one text whatever their number: kept prepared on PostgreSQL.
    const rows = await this.arrays<unknown[]>(
      reusable(
        this.db
          .selectFrom('invoiceable_amounts')
          .select(TIER_COLUMNS)
          .where(sql<SqlBool>`invoiceable_item_id ${ids}`)
          .orderBy('position'),
      ),
    );
    const byItem = new Map<string, InvoiceableAmount[]>();
    for (const row of rows) {
      const tier = tierOf(row);
      const list = byItem.get(tier.invoiceableItemId);
      if (list) list.push(tier);
      else byItem.set(tier.invoiceableItemId, [tier]);
    }
    return itemIds.map((id) => byItem.get(id) ?? []);
  }
}
