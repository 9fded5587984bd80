import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * SQLite: the index of each UTC day's rate changes in the page's order carries the listing too, as
 * the ordering index does, so a page of a few days is read from the index alone. Before, each of
 * its 500 rows was looked up in the table by rowid, scattered over it when the rows were not stored
 * in time order: a random day's page of the 1,000,000-row bench company took 0.80-1.11 ms in
 * SQLite, and 0.26-0.31 ms from the index, for about 480 more bytes a row of index.
 * PostgreSQL has no such index (it reads a day's window along its own indexes): nothing to change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop index rate_changes_day`.execute(db);
  await sql`create index rate_changes_day on rate_changes
    (company_id, substr(changed_at, 1, 10), facility_sort, tenant_sort, changed_at, id, created_by, listing)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop index rate_changes_day`.execute(db);
  await sql`create index rate_changes_day on rate_changes
    (company_id, substr(changed_at, 1, 10), facility_sort, tenant_sort, changed_at, id, created_by)`.execute(
    db,
  );
}
