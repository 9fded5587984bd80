import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL: every change of a revision counter notifies its scope on the schema's revisions
 * channel, in the writing transaction (so at its commit, in commit order), and the instances that
 * keep tokens in memory register in `revision_listeners` (a row per listening connection, with its
 * lease), each row renewed by the instance's pulses.
 * See `store/revision-notices.ts`. SQLite has one process's connection to trust: nothing to add.
 *
 * The channel is `facility_ops_revisions_` and the schema's name, cut to PostgreSQL's 63 bytes as
 * LISTEN cuts it. A truncation (or a bulk delete) of the counters notifies `*`: every token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create table revision_listeners (
    id text primary key,
    alive_until timestamptz not null,
    lease_ms integer not null
  )`);
  await run(`create function data_revision_notify() returns trigger language plpgsql
    set search_path from current as $$
    begin
      perform pg_notify(left('facility_ops_revisions_' || current_schema(), 63),
        'r:' || case when tg_op = 'DELETE' then old.scope else new.scope end);
      return null;
    end $$`);
  await run(`create function data_revision_notify_all() returns trigger language plpgsql
    set search_path from current as $$
    begin
      perform pg_notify(left('facility_ops_revisions_' || current_schema(), 63), 'r:*');
      return null;
    end $$`);
  await run(`create trigger data_revision_notify after insert or update or delete on data_revisions
    for each row execute function data_revision_notify()`);
  await run(`create trigger data_revision_notify_truncate after truncate on data_revisions
    for each statement execute function data_revision_notify_all()`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const run = (text: string) => sql.raw(text).execute(db);
  await run('drop trigger if exists data_revision_notify_truncate on data_revisions');
  await run('drop trigger if exists data_revision_notify on data_revisions');
  await run('drop function if exists data_revision_notify_all()');
  await run('drop function if exists data_revision_notify()');
  await run('drop table if exists revision_listeners');
}
