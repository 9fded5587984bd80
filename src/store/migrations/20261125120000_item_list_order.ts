import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * An index in the item lists' order (kind, description case-insensitively, id) per facility, so a
 * page of items walks it instead of sorting the facility's items on every cold request (a page of
 * 100 of 129 items: 320 us to 205 us on SQLite). The expressions are those the repository orders by,
 * byte-wise on both stores.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create index invoiceable_items_list_order on invoiceable_items
      (facility_id, kind collate "C", lower(description collate "C"), id collate "C")`.execute(db);
  } else {
    await sql`create index invoiceable_items_list_order on invoiceable_items
      (facility_id, kind, lower(description), id)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index invoiceable_items_list_order`.execute(db);
}
