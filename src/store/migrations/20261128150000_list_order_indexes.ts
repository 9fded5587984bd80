import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Indexes in the order of a facility's events (created_at, then id), of its outbox messages and of
 * a webhook endpoint's deliveries (the same, walked newest first), so a cursor connection over either seeks its position and reads
 * the slice from there instead of sorting the facility's rows. The expressions are those the
 * repositories order by, byte-wise on both stores.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const binary = isPostgres(db) ? sql` collate "C"` : sql``;
  await sql`create index events_list_order on events
    (facility_id, created_at${binary}, id${binary})`.execute(db);
  await sql`create index outbox_messages_list_order on outbox_messages
    (facility_id, created_at${binary}, id${binary})`.execute(db);
  await sql`create index outbox_messages_recipient_order on outbox_messages
    (channel, recipient, created_at${binary}, id${binary})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index outbox_messages_recipient_order`.execute(db);
  await sql`drop index outbox_messages_list_order`.execute(db);
  await sql`drop index events_list_order`.execute(db);
}
