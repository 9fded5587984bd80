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
 * numbers each row as the transaction commits: under a lock of the schema's journal, held until the
 * commit ends, it gives the row the next number of `live_events_seq_seq` (rows in the order they
 * were written) and notifies it on the schema's channel (the prefix is `LIVE_CHANNEL_PREFIX`). A
 * transaction that commits later numbers later. The lock is held for the numbering and the commit
 * only, never while a transaction waits on anything else, and costs little: PostgreSQL already
 * commits notifying transactions one at a time (`bench/live-commits.js`).
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
      numbered bigint;
    begin
      -- Fired for each row written, in the order they were written, as the transaction commits.
      perform pg_advisory_xact_lock(hashtext(channel));
      update live_events set seq = nextval('live_events_seq_seq') where seq = new.seq
      returning seq into numbered;
      perform pg_notify(channel, numbered::text);
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
