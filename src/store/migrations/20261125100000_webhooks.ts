import type { Kysely } from 'kysely';

/**
 * Webhooks: endpoints that client applications register for their company, delivered through the
 * outbox (channel `webhook`, one message per event and endpoint, `recipient` holding the endpoint id).
 *
 * - `webhook_endpoints`: the URL, the event types it wants (comma-separated), and its signing
 *   secrets: the current one and, for a day after a rotation, the one it replaced. They are kept as
 *   given (`whsec_...`) since every delivery is signed with them; they are shown only when made.
 *   `failing_since` is the first failed delivery since the last success: an endpoint failing for
 *   long enough is disabled (`disabled_reason` says by whom).
 * - `outbox_messages.response_code`: the HTTP status of the last answer to a delivery, if any.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('secret_rotated_at', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_company')
    .on('webhook_endpoints')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema.alterTable('outbox_messages').addColumn('response_code', 'integer').execute();
  await db.schema
    .createIndex('outbox_messages_recipient')
    .on('outbox_messages')
    .columns(['channel', 'recipient', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_messages_recipient').execute();
  await db.schema.alterTable('outbox_messages').dropColumn('response_code').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
