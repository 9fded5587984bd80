import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Live events: every event a change reports (the webhook events), written in the change's
 * transaction whether or not an endpoint wants it, numbered in `seq`. GraphQL subscriptions read
 * them after commit and replay them to a client that reconnects (`Last-Event-ID`, `since`); rows
 * older than LIVE_REPLAY_WINDOW_MINUTES are deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('live_events')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('live_events_facility')
    .on('live_events')
    .columns(['facility_id', 'seq'])
    .execute();
  await db.schema.createIndex('live_events_occurred').on('live_events').column('occurred_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_events').execute();
}
