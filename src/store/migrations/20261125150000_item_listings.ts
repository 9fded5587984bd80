import { sql, type Kysely } from 'kysely';

/**
 * Each invoiceable item keeps its listing: the contract's JSON text of it with its tiers
 * (InvoiceableItem.listing), written by the import with the item. A retail item's is kept in two parts, either
 * side of its quantity, which a sale changes. A page is then the texts of its items, joined by the
 * database, instead of 19 columns and the tiers of each made into objects and serialized again.
 * The items stored before it get theirs from the listing rebuild `migrate` runs after the
 * migrations (src/store/listings.ts): a migration runs no application code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invoiceable_items add column listing text not null default ''`.execute(db);
  await sql`alter table invoiceable_items add column listing_rest text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invoiceable_items drop column listing_rest`.execute(db);
  await sql`alter table invoiceable_items drop column listing`.execute(db);
}
