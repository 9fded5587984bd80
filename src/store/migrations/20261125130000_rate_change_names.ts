import { sql, type Kysely } from 'kysely';

/**
 * Each rate change keeps the names its item shows, its tenant's and its unit's, beside the sort
 * keys it already kept (`facility_sort`, `tenant_sort`); the import keeps them in step when a
 * tenant or unit is renamed, in the same transaction. A page then reads its 500 rows without
 * looking up a tenant and a unit for each: a random day's page names about 500 of each, and those
 * lookups took 2.2 ms of its 5 on SQLite. Facilities are few, and are still looked up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_changes add column tenant_name text not null default ''`.execute(db);
  await sql`alter table rate_changes add column unit_name text not null default ''`.execute(db);
  await sql`update rate_changes set
      tenant_name = (select t.first_name || ' ' || t.last_name from tenants t where t.id = rate_changes.tenant_id),
      unit_name = (select u.name from units u where u.id = rate_changes.unit_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rate_changes drop column unit_name`.execute(db);
  await sql`alter table rate_changes drop column tenant_name`.execute(db);
}
