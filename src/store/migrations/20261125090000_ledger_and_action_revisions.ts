import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Revision counters for two more kept answers, so they carry an ETag too (a gateway in front then
 * revalidates them with If-None-Match and gets a 304, not a rebuild):
 * - `ledgers:<facility id>`: the facility's ledgers and their insurance, services and discounts;
 * - `actions:<facility id>`: the facility's rate applied actions.
 * Both also move when the facility's time zone does (it decides "today" and the offsets shown).
 * Triggers bump them per row in the writing transaction; the SQLite seed suspends them like the
 * others (their names start with `data_revision_`) and bumps `*` instead.
 */
const LEDGER_PARTS = ['ledger_insurances', 'ledger_services', 'ledger_discounts'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await createPostgresTriggers(db);
  else await createSqliteTriggers(db);
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const bump = (prefix: string, facility: string) =>
    `insert into data_revisions (scope, revision) select '${prefix}:' || ${facility}, 1 where ${facility} is not null
     on conflict (scope) do update set revision = revision + 1;`;
  const rows = { insert: ['new'], update: ['old', 'new'], delete: ['old'] } as const;
  for (const [event, names] of Object.entries(rows)) {
    await run(`create trigger data_revision_actions_${event} after ${event} on rate_applied_actions
      begin ${names.map((row) => bump('actions', `${row}.facility_id`)).join('\n')} end`);
    await run(`create trigger data_revision_ledgers_${event} after ${event} on ledgers
      begin ${names.map((row) => bump('ledgers', `${row}.facility_id`)).join('\n')} end`);
    for (const table of LEDGER_PARTS) {
      const facility = (row: string) => `(select facility_id from ledgers where id = ${row}.ledger_id)`;
      await run(`create trigger data_revision_${table}_${event} after ${event} on ${table}
        begin ${names.map((row) => bump('ledgers', facility(row))).join('\n')} end`);
    }
  }
  await run(`create trigger data_revision_facilities_zone after update of time_zone on facilities
    begin ${bump('actions', 'new.id')} ${bump('ledgers', 'new.id')} end`);
}

/** Per row, like the items' counters, but not deferred: only imports write these tables. */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  // tg_argv[0]: the scope's prefix; tg_argv[1]: 'direct' (the row has facility_id) or 'ledger'.
  await run(`create function data_revision_facility_rows() returns trigger language plpgsql
    set search_path from current as $$
    declare
      facility text;
    begin
      if tg_op <> 'INSERT' then
        if tg_argv[1] = 'direct' then facility := old.facility_id;
        else select l.facility_id into facility from ledgers l where l.id = old.ledger_id; end if;
        if facility is not null then perform data_revision_bump(tg_argv[0] || ':' || facility); end if;
      end if;
      if tg_op <> 'DELETE' then
        if tg_argv[1] = 'direct' then facility := new.facility_id;
        else select l.facility_id into facility from ledgers l where l.id = new.ledger_id; end if;
        if facility is not null then perform data_revision_bump(tg_argv[0] || ':' || facility); end if;
      end if;
      return null;
    end $$`);
  await run(`create trigger data_revision_actions after insert or update or delete on rate_applied_actions
    for each row execute function data_revision_facility_rows('actions', 'direct')`);
  await run(`create trigger data_revision_ledgers after insert or update or delete on ledgers
    for each row execute function data_revision_facility_rows('ledgers', 'direct')`);
  for (const table of LEDGER_PARTS) {
    await run(`create trigger data_revision_${table} after insert or update or delete on ${table}
      for each row execute function data_revision_facility_rows('ledgers', 'ledger')`);
  }
  await run(`create function data_revision_facility_zone() returns trigger language plpgsql
    set search_path from current as $$
    begin
      perform data_revision_bump('actions:' || new.id);
      perform data_revision_bump('ledgers:' || new.id);
      return null;
    end $$`);
  await run(`create trigger data_revision_facilities_zone after update of time_zone on facilities
    for each row execute function data_revision_facility_zone()`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (isPostgres(db)) {
    await run('drop trigger if exists data_revision_actions on rate_applied_actions');
    await run('drop trigger if exists data_revision_ledgers on ledgers');
    for (const table of LEDGER_PARTS) await run(`drop trigger if exists data_revision_${table} on ${table}`);
    await run('drop trigger if exists data_revision_facilities_zone on facilities');
    await run('drop function if exists data_revision_facility_rows()');
    await run('drop function if exists data_revision_facility_zone()');
  } else {
    for (const event of ['insert', 'update', 'delete']) {
      for (const table of ['actions', 'ledgers', ...LEDGER_PARTS]) {
        await run(`drop trigger if exists data_revision_${table}_${event}`);
      }
    }
    await run('drop trigger if exists data_revision_facilities_zone');
  }
  await run(`delete from data_revisions where scope like 'actions:%' or scope like 'ledgers:%'`);
}
