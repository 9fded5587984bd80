import { sql, type Kysely } from 'kysely';
import { InvoiceableItem } from '../../contract';
import {
  ITEM_COLUMNS,
  itemOf,
  tierOf,
  type ItemArray,
  type TierArray,
} from '../../areas/invoiceable-items/invoiceable-items.repository';

/** Items whose listings are written per statement. */
const CHUNK = 1000;

/**
 * Each invoiceable item keeps its listing: the contract's JSON text of it with its tiers
 * (InvoiceableItem.listing), written by the import with the item. A retail item's is kept in two parts, either
 * side of its quantity, which a sale changes. A page is then the texts of its items, joined by the
 * database, instead of 19 columns and the tiers of each made into objects and serialized again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invoiceable_items add column listing text not null default ''`.execute(db);
  await sql`alter table invoiceable_items add column listing_rest text`.execute(db);
  const columns = sql.join(ITEM_COLUMNS.map((column) => sql.ref(column)));
  for (let after = ''; ;) {
    const { rows } = await sql<Record<string, unknown>>`select ${columns} from invoiceable_items
      where id > ${after} order by id limit ${CHUNK}`.execute(db);
    if (rows.length === 0) break;
    const items = rows.map((row) => itemOf(Object.values(row) as ItemArray));
    const ids = items.map((item) => item.id);
    const { rows: tierRows } = await sql<Record<string, unknown>>`select id, invoiceable_item_id, position,
        kind, amount_cents, limit_value from invoiceable_amounts
      where invoiceable_item_id in (${sql.join(ids)}) order by position`.execute(db);
    const tiers = new Map<string, ReturnType<typeof tierOf>[]>();
    for (const row of tierRows) {
      const tier = tierOf(Object.values(row) as TierArray);
      tiers.set(tier.itemId, [...(tiers.get(tier.itemId) ?? []), tier]);
    }
    for (const item of items) {
      const listing = InvoiceableItem.listing({ item, tiers: tiers.get(item.id) ?? [] });
      await sql`update invoiceable_items set listing = ${listing.text}, listing_rest = ${listing.rest}
        where id = ${item.id}`.execute(db);
    }
    after = ids[ids.length - 1];
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invoiceable_items drop column listing_rest`.execute(db);
  await sql`alter table invoiceable_items drop column listing`.execute(db);
}
