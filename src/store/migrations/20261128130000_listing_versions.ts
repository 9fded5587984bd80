import type { Kysely } from 'kysely';

/**
 * The version of the code that wrote each table's stored listings, and the progress of a rebuild
 * under way (src/store/listings.ts). A table stored before it has the empty version: `migrate`
 * rebuilds its listings with the code of the release it runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('listing_versions')
    .addColumn('listing', 'text', (c) => c.primaryKey())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('rebuilding', 'text')
    .addColumn('after_id', 'text')
    .addColumn('rebuilt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto('listing_versions' as never)
    .values([
      { listing: 'invoiceable_items', version: '' },
      { listing: 'rate_changes', version: '' },
    ] as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('listing_versions').execute();
}
