import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Rate change updates at scale: a page walks one of two covering indexes, and total_entries comes
 * from per-day counts (per company, and per company and creator) that triggers keep exact on every
 * insert, update and delete, whichever code writes the rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);

  // Both carry every column a page or count reads, so neither ever touches the table.
  await db.schema.dropIndex('rate_changes_order').execute();
  await db.schema.dropIndex('rate_changes_window').execute();
  await db.schema
    .createIndex('rate_changes_order')
    .on('rate_changes')
    .columns(['company_id', 'facility_sort', 'tenant_sort', 'changed_at', 'id', 'created_by'])
    .execute();
  await db.schema
    .createIndex('rate_changes_window')
    .on('rate_changes')
    .columns(['company_id', 'changed_at', 'created_by', 'facility_sort', 'tenant_sort', 'id'])
    .execute();

  // `day` is the UTC date of changed_at (its first ten characters). Rows may hold 0 after deletes.
  await db.schema
    .createTable('rate_change_daily_counts')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_change_daily_counts_pk', ['company_id', 'day'])
    .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema
    .createTable('rate_change_creator_daily_counts')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_change_creator_daily_counts_pk', ['company_id', 'created_by', 'day'])
    .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
    .execute();

  if (pg) await createPostgresTriggers(db, { monthly: false });
  else await createSqliteTriggers(db, { monthly: false });

  await sql`
    insert into rate_change_daily_counts (company_id, day, entries)
    select company_id, substr(changed_at, 1, 10), count(*) from rate_changes group by 1, 2
  `.execute(db);
  await sql`
    insert into rate_change_creator_daily_counts (company_id, created_by, day, entries)
    select company_id, created_by, substr(changed_at, 1, 10), count(*) from rate_changes
    where created_by is not null group by 1, 2, 3
  `.execute(db);
}

/**
 * What the count triggers keep besides the per-day tables: with `monthly`, the per-month table of
 * migration 20261126120000_monthly_rate_change_counts too.
 */
export interface CountTables {
  monthly: boolean;
}

/** SQLite's row triggers that keep the count tables exact. */
export async function createSqliteTriggers(db: Kysely<unknown>, { monthly }: CountTables): Promise<void> {
  const addMonth = monthly
    ? sql`insert into rate_change_monthly_counts (company_id, month, entries)
          values (new.company_id, substr(new.changed_at, 1, 7), 1)
          on conflict (company_id, month) do update set entries = entries + 1;`
    : sql``;
  const removeMonth = monthly
    ? sql`update rate_change_monthly_counts set entries = entries - 1
          where company_id = old.company_id and month = substr(old.changed_at, 1, 7);`
    : sql``;
  const add = sql`
    insert into rate_change_daily_counts (company_id, day, entries)
    values (new.company_id, substr(new.changed_at, 1, 10), 1)
    on conflict (company_id, day) do update set entries = entries + 1;
    ${addMonth}
    insert into rate_change_creator_daily_counts (company_id, created_by, day, entries)
    select new.company_id, new.created_by, substr(new.changed_at, 1, 10), 1 where new.created_by is not null
    on conflict (company_id, created_by, day) do update set entries = entries + 1;`;
  const remove = sql`
    update rate_change_daily_counts set entries = entries - 1
    where company_id = old.company_id and day = substr(old.changed_at, 1, 10);
    ${removeMonth}
    update rate_change_creator_daily_counts set entries = entries - 1
    where company_id = old.company_id and created_by = old.created_by and day = substr(old.changed_at, 1, 10);`;
  await sql`create trigger rate_changes_count_insert after insert on rate_changes begin ${add} end`.execute(
    db,
  );
  await sql`create trigger rate_changes_count_delete after delete on rate_changes begin ${remove} end`.execute(
    db,
  );
  await sql`
    create trigger rate_changes_count_update after update of company_id, changed_at, created_by on rate_changes
    when old.company_id is not new.company_id
      or substr(old.changed_at, 1, 10) is not substr(new.changed_at, 1, 10)
      or old.created_by is not new.created_by
    begin ${remove} ${add} end`.execute(db);
}

/** Net change per bucket of one statement: +1 for each row as it is now, -1 for each as it was. */
const DELTAS = {
  insert: `select company_id, created_by, substr(changed_at, 1, 10) as day, 1 as n from new_rows`,
  update: `select company_id, created_by, substr(changed_at, 1, 10) as day, 1 as n from new_rows
           union all
           select company_id, created_by, substr(changed_at, 1, 10), -1 from old_rows`,
  delete: `select company_id, created_by, substr(changed_at, 1, 10) as day, -1 as n from old_rows`,
} as const;

const TRANSITION_TABLES = {
  insert: 'new table as new_rows',
  update: 'old table as old_rows new table as new_rows',
  delete: 'old table as old_rows',
} as const;

/**
 * PostgreSQL's statement-level triggers: one grouped upsert per statement and table, not one per
 * row, for bulk imports. The functions keep the migration's search_path, so a session with another
 * one still finds the tables.
 */
export async function createPostgresTriggers(db: Kysely<unknown>, { monthly }: CountTables): Promise<void> {
  const monthlyStep = monthly
    ? sql`, monthly as (
          insert into rate_change_monthly_counts as c (company_id, month, entries)
          select company_id, substr(day, 1, 7), sum(n) from delta group by company_id, substr(day, 1, 7)
          having sum(n) <> 0
          on conflict (company_id, month) do update set entries = c.entries + excluded.entries
        )`
    : sql``;
  for (const event of ['insert', 'update', 'delete'] as const) {
    await sql`
      create function ${sql.raw(`rate_change_counts_on_${event}`)}() returns trigger language plpgsql
      set search_path from current as $$
      begin
        with delta as (${sql.raw(DELTAS[event])}),
        daily as (
          insert into rate_change_daily_counts as c (company_id, day, entries)
          select company_id, day, sum(n) from delta group by company_id, day having sum(n) <> 0
          on conflict (company_id, day) do update set entries = c.entries + excluded.entries
        )
        ${monthlyStep}
        insert into rate_change_creator_daily_counts as c (company_id, created_by, day, entries)
        select company_id, created_by, day, sum(n) from delta where created_by is not null
        group by company_id, created_by, day having sum(n) <> 0
        on conflict (company_id, created_by, day) do update set entries = c.entries + excluded.entries;
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger ${sql.raw(`rate_changes_count_${event}`)} after ${sql.raw(event)} on rate_changes
      referencing ${sql.raw(TRANSITION_TABLES[event])}
      for each statement execute function ${sql.raw(`rate_change_counts_on_${event}`)}()
    `.execute(db);
  }
}

/** Drops the count triggers (and PostgreSQL's functions behind them). */
export async function dropCountTriggers(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  for (const event of ['insert', 'update', 'delete']) {
    const trigger = sql.id(`rate_changes_count_${event}`);
    if (pg) {
      await sql`drop trigger if exists ${trigger} on rate_changes`.execute(db);
      await sql`drop function if exists ${sql.id(`rate_change_counts_on_${event}`)}()`.execute(db);
    } else {
      await sql`drop trigger if exists ${trigger}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db);
  await db.schema.dropTable('rate_change_creator_daily_counts').ifExists().execute();
  await db.schema.dropTable('rate_change_daily_counts').ifExists().execute();
  await db.schema.dropIndex('rate_changes_order').execute();
  await db.schema.dropIndex('rate_changes_window').execute();
  await db.schema
    .createIndex('rate_changes_order')
    .on('rate_changes')
    .columns(['company_id', 'facility_sort', 'tenant_sort', 'changed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('rate_changes_window')
    .on('rate_changes')
    .columns(['company_id', 'changed_at'])
    .execute();
}
