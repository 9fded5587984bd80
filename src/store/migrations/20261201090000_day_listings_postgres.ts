import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL: the index of each UTC day's rate changes in the page's order, carrying the listing,
 * as SQLite's rate_changes_day does: a page of a window of a few days is read from it alone, day
 * by day, instead of from the window's index with each row looked up in the table. SQLite has had it since 20261125140000 (20261130100000 added the listing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index rate_changes_day on rate_changes
    (company_id, left(changed_at, 10), facility_sort, tenant_sort, changed_at, id) include (created_by, listing)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index rate_changes_day`.execute(db);
}
