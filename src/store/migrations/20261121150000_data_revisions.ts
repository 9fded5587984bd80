import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Revision counters for the pages the service keeps serialized between requests. Triggers bump a
 * counter in the same transaction as every write that can change what a cached page shows, so an
 * instance that reads a counter before building a page knows whether a page it kept is still exact,
 * whichever process or code wrote the rows.
 *
 * Scopes:
 * - `*`: bumped by bulk loads that suspend the triggers (the SQLite seed); part of every token.
 * - `rate_changes`: any rate change row, or a facility, tenant or unit name (or a facility's time
 *   zone or company) that rate change pages show. Rate changes change only by import.
 * - `items:<facility id>`: the facility's invoiceable items and their amount tiers, including the
 *   stock a retail payment takes.
 * - `flippers`: flags, their actors, and a facility moved to another company. Import only.
 * - `facilities`: any change to or removal of a facility or company (which company a facility
 *   belongs to decides who may read it). Import only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_revisions')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into data_revisions (scope, revision) values ('*', 0), ('rate_changes', 0), ('flippers', 0), ('facilities', 0)`.execute(
    db,
  );
  if (isPostgres(db)) await createPostgresTriggers(db);
  else await createSqliteTriggers(db);
}

/** Tables whose writes change rate change pages, and the columns those pages show. */
const RATE_CHANGE_SOURCES = [
  { table: 'tenants', columns: 'first_name, last_name' },
  { table: 'units', columns: 'name' },
  { table: 'facilities', columns: 'name, time_zone, company_id' },
] as const;

const bump = (scope: string) => `update data_revisions set revision = revision + 1 where scope = '${scope}';`;
const BUMP_RATE_CHANGES = bump('rate_changes');

/** Tables whose every write changes the flippers a facility has. */
const FLIPPER_SOURCES = ['flippers', 'flipper_actors'] as const;

/** Tables whose updates and deletes change the `facilities` scope. */
const FACILITY_SOURCES = ['facilities', 'companies'] as const;

/** SQLite has row triggers only; each bump is one indexed update or upsert. */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const event of ['insert', 'update', 'delete']) {
    await run(`create trigger data_revision_rate_changes_${event} after ${event} on rate_changes
      begin ${BUMP_RATE_CHANGES} end`);
  }
  for (const { table, columns } of RATE_CHANGE_SOURCES) {
    await run(`create trigger data_revision_${table}_update after update of ${columns} on ${table}
      begin ${BUMP_RATE_CHANGES} end`);
    await run(`create trigger data_revision_${table}_delete after delete on ${table}
      begin ${BUMP_RATE_CHANGES} end`);
  }

  for (const table of FLIPPER_SOURCES) {
    for (const event of ['insert', 'update', 'delete']) {
      await run(`create trigger data_revision_${table}_${event} after ${event} on ${table}
        begin ${bump('flippers')} end`);
    }
  }
  await run(`create trigger data_revision_facilities_company after update of company_id on facilities
    begin ${bump('flippers')} end`);
  for (const table of FACILITY_SOURCES) {
    for (const event of ['update', 'delete']) {
      await run(`create trigger data_revision_${table}_any_${event} after ${event} on ${table}
        begin ${bump('facilities')} end`);
    }
  }

  const bumpItems = (facility: string) =>
    `insert into data_revisions (scope, revision) select 'items:' || ${facility}, 1 where ${facility} is not null
     on conflict (scope) do update set revision = revision + 1;`;
  const itemFacility = (row: 'new' | 'old') =>
    `(select facility_id from invoiceable_items where id = ${row}.invoiceable_item_id)`;
  await run(`create trigger data_revision_items_insert after insert on invoiceable_items
    begin ${bumpItems('new.facility_id')} end`);
  await run(`create trigger data_revision_items_update after update on invoiceable_items
    begin ${bumpItems('old.facility_id')}
      ${bumpItems('case when new.facility_id is not old.facility_id then new.facility_id end')} end`);
  await run(`create trigger data_revision_items_delete after delete on invoiceable_items
    begin ${bumpItems('old.facility_id')} end`);
  await run(`create trigger data_revision_amounts_insert after insert on invoiceable_amounts
    begin ${bumpItems(itemFacility('new'))} end`);
  await run(`create trigger data_revision_amounts_update after update on invoiceable_amounts
    begin ${bumpItems(itemFacility('old'))}
      ${bumpItems(`case when new.invoiceable_item_id is not old.invoiceable_item_id then ${itemFacility('new')} end`)} end`);
  await run(`create trigger data_revision_amounts_delete after delete on invoiceable_amounts
    begin ${bumpItems(itemFacility('old'))} end`);
}

/**
 * Rate change sources bump once per statement (imports write them a million rows at a time).
 * Item sources bump per row, deferred to commit: a retail payment locks its items' rows first and
 * then waits for the payment processor, and a counter locked at the start of that wait would queue
 * every other payment at the facility behind it (and could deadlock with one that locked another
 * item first). Locked at commit, the counter is held only for the commit itself.
 * The functions keep the migration's search_path, so a session with another one still finds the tables.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function data_revision_bump(target text) returns void language sql
    set search_path from current as $$
      insert into data_revisions as r (scope, revision) values (target, 1)
      on conflict (scope) do update set revision = r.revision + 1
    $$`);
  // Bumps the scopes named as the trigger's arguments.
  await run(`create function data_revision_scopes() returns trigger language plpgsql
    set search_path from current as $$
    begin
      for i in 0 .. tg_nargs - 1 loop
        update data_revisions set revision = revision + 1 where scope = tg_argv[i];
      end loop;
      return null;
    end $$`);
  await run(`create trigger data_revision_rate_changes after insert or update or delete on rate_changes
    for each statement execute function data_revision_scopes('rate_changes')`);
  for (const { table, columns } of RATE_CHANGE_SOURCES) {
    await run(`create trigger data_revision_${table} after update of ${columns} or delete on ${table}
      for each statement execute function data_revision_scopes('rate_changes')`);
  }
  for (const table of FLIPPER_SOURCES) {
    await run(`create trigger data_revision_${table} after insert or update or delete on ${table}
      for each statement execute function data_revision_scopes('flippers')`);
  }
  await run(`create trigger data_revision_facilities_company after update of company_id on facilities
    for each statement execute function data_revision_scopes('flippers')`);
  for (const table of FACILITY_SOURCES) {
    await run(`create trigger data_revision_${table}_any after update or delete on ${table}
      for each statement execute function data_revision_scopes('facilities')`);
  }

  await run(`create function data_revision_items() returns trigger language plpgsql
    set search_path from current as $$
    begin
      if tg_op <> 'INSERT' then
        perform data_revision_bump('items:' || old.facility_id);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.facility_id is distinct from old.facility_id) then
        perform data_revision_bump('items:' || new.facility_id);
      end if;
      return null;
    end $$`);
  await run(`create function data_revision_amounts() returns trigger language plpgsql
    set search_path from current as $$
    declare
      facility text;
    begin
      if tg_op <> 'INSERT' then
        select facility_id into facility from invoiceable_items where id = old.invoiceable_item_id;
        if facility is not null then perform data_revision_bump('items:' || facility); end if;
      end if;
      if tg_op = 'INSERT'
        or (tg_op = 'UPDATE' and new.invoiceable_item_id is distinct from old.invoiceable_item_id) then
        select facility_id into facility from invoiceable_items where id = new.invoiceable_item_id;
        if facility is not null then perform data_revision_bump('items:' || facility); end if;
      end if;
      return null;
    end $$`);
  for (const [table, fn] of [
    ['invoiceable_items', 'data_revision_items'],
    ['invoiceable_amounts', 'data_revision_amounts'],
  ]) {
    await run(`create constraint trigger ${fn} after insert or update or delete on ${table}
      deferrable initially deferred for each row execute function ${fn}()`);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run('drop trigger if exists data_revision_items on invoiceable_items');
    await run('drop trigger if exists data_revision_amounts on invoiceable_amounts');
    await run('drop trigger if exists data_revision_rate_changes on rate_changes');
    for (const table of [...RATE_CHANGE_SOURCES.map((source) => source.table), ...FLIPPER_SOURCES]) {
      await run(`drop trigger if exists data_revision_${table} on ${table}`);
    }
    await run('drop trigger if exists data_revision_facilities_company on facilities');
    for (const table of FACILITY_SOURCES) {
      await run(`drop trigger if exists data_revision_${table}_any on ${table}`);
    }
    for (const fn of ['data_revision_items()', 'data_revision_amounts()', 'data_revision_scopes()']) {
      await run(`drop function if exists ${fn}`);
    }
    await run('drop function if exists data_revision_bump(text)');
  } else {
    const triggers = await sql<{ name: string }>`
      select name from sqlite_master where type = 'trigger' and name like 'data_revision_%'
    `.execute(db);
    for (const { name } of triggers.rows) await sql`drop trigger ${sql.id(name)}`.execute(db);
  }
  await db.schema.dropTable('data_revisions').execute();
}
