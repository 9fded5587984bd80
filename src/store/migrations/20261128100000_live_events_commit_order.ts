import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL: live events numbered in commit order, so that a client resuming after a number
 * (`Last-Event-ID`, `since`) misses nothing that committed after the event it saw, and every
 * instance hears events in their numbers' order.
 *
 * A sequence hands out numbers when rows are inserted, and a transaction that took 10 may commit
 * after one that took 11 (a card payment writes its event before the gateway answers). So a row is
 * inserted under a draft number (negative, from a sequence of its own), and a deferred trigger
 * numbers the transaction's rows as it commits: under a lock of the schema's journal, held until
 * the commit ends, it gives them the next numbers of `live_events_seq_seq`, in the order they were
 * written, and notifies them on the schema's channel (the prefix is `LIVE_CHANNEL_PREFIX`). A
 * transaction that commits later numbers later; the lock is held for the numbering and the commit
 * only, never while a transaction waits on anything else.
 *
 * SQLite writes one transaction at a time, so its numbers are in commit order already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create sequence live_events_draft_seq`.execute(db);
  await sql`alter table live_events alter column seq set default -nextval('live_events_draft_seq')`.execute(
    db,
  );
  await sql`
    create function live_events_number() returns trigger language plpgsql
    set search_path from current as $$
    declare
      channel text := 'facility_ops_live:' || current_schema();
      draft bigint;
      numbered bigint[] := '{}';
      seq_now bigint;
      chunk int;
    begin
      -- Fired once per row written; the first firing at commit numbers them all.
      if not exists (select 1 from live_events where seq < 0) then
        return null;
      end if;
      perform pg_advisory_xact_lock(hashtext(channel));
      -- Only this transaction's drafts are visible: another's are not committed.
      for draft in select seq from live_events where seq < 0 order by seq desc loop
        update live_events set seq = nextval('live_events_seq_seq') where seq = draft
        returning seq into seq_now;
        numbered := numbered || seq_now;
      end loop;
      -- A notification's payload holds at most 8,000 bytes: numbers in lists of 500.
      for chunk in 0 .. (cardinality(numbered) - 1) / 500 loop
        perform pg_notify(channel, array_to_string(numbered[chunk * 500 + 1 : chunk * 500 + 500], ','));
      end loop;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger live_events_number after insert on live_events
    deferrable initially deferred for each row execute function live_events_number()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger live_events_number on live_events`.execute(db);
  await sql`drop function live_events_number()`.execute(db);
  await sql`alter table live_events alter column seq set default nextval('live_events_seq_seq')`.execute(db);
  await sql`drop sequence live_events_draft_seq`.execute(db);
}
