import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Each rate change keeps its listing: the contract's JSON text of it (RateChangeUpdate.listing in src/contract), which the
 * import keeps in step with renames and zone changes. The rows stored before it get theirs from the
 * listing rebuild `migrate` runs after the migrations (src/store/listings.ts): a migration runs no
 * application code, so it stays what it was when it was written (docs/operations.md#upgrades). A page of 500 is then one text the database
 * joins, instead of 5,500 values made into objects and serialized again on every cold request.
 *
 * A unit's rate changes get an index, as its tenant's and facility's have: a renamed unit's
 * listings are rewritten.
 *
 * The ordering index also carries the listing, so a page walked along it reads no row of the
 * table (SQLite, a cold page of a company's whole history: 740-970 req/s with a row looked up per
 * entry, 1,000-1,250 without; PostgreSQL, the page's statement: 3.3 ms to 1.3 ms, once a vacuum
 * has marked the table's pages all-visible, which `import` and `seed` now do). SQLite also gets an index of each UTC day's rate changes in the
 * page's order: a window of a few days is read as a merge of those runs instead of reading and
 * sorting all of its rows (a day of 1,400 rows took 1.4 ms to sort for a page of 500).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_changes add column listing text not null default ''`.execute(db);
  const postgres = isPostgres(db);
  await sql`create index rate_changes_unit on rate_changes (unit_id)`.execute(db);
  await sql`drop index rate_changes_order`.execute(db);
  if (postgres) {
    await sql`create index rate_changes_order on rate_changes
      (company_id, facility_sort, tenant_sort, changed_at, id) include (created_by, listing)`.execute(db);
  } else {
    await sql`create index rate_changes_order on rate_changes
      (company_id, facility_sort, tenant_sort, changed_at, id, created_by, listing)`.execute(db);
    await sql`create index rate_changes_day on rate_changes
      (company_id, substr(changed_at, 1, 10), facility_sort, tenant_sort, changed_at, id, created_by)`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await sql`drop index rate_changes_day`.execute(db);
  await sql`drop index rate_changes_order`.execute(db);
  await sql`create index rate_changes_order on rate_changes
    (company_id, facility_sort, tenant_sort, changed_at, id, created_by)`.execute(db);
  await sql`drop index rate_changes_unit`.execute(db);
  await sql`alter table rate_changes drop column listing`.execute(db);
}
