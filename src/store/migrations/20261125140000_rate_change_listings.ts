import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { LISTING_SOURCE, listingOfRow } from '../../areas/rate-changes/rate-changes.repository';

/** Rows whose listings are written per statement. */
const CHUNK = 5000;

/**
 * Each rate change keeps its listing: the contract's JSON text of it (RateChangeUpdate.listing in src/contract), which the
 * import keeps in step with renames and zone changes. A page of 500 is then one text the database
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
  for (let after = ''; ;) {
    const { rows } = await sql<Record<string, unknown>>`${sql.raw(LISTING_SOURCE)}
      where rc.id > ${after} order by rc.id limit ${CHUNK}`.execute(db);
    if (rows.length === 0) break;
    const ids: string[] = [];
    const listings: string[] = [];
    for (const row of rows) {
      const values = Object.values(row);
      ids.push(values[0] as string);
      listings.push(listingOfRow(values));
    }
    if (postgres) {
      await sql`update rate_changes set listing = v.listing
        from unnest(${ids}::text[], ${listings}::text[]) as v(id, listing)
        where rate_changes.id = v.id`.execute(db);
    } else {
      await sql`update rate_changes set listing = v.value ->> '$[1]'
        from json_each(${JSON.stringify(ids.map((id, i) => [id, listings[i]]))}) v
        where rate_changes.id = v.value ->> '$[0]'`.execute(db);
    }
    after = ids[ids.length - 1];
  }
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
