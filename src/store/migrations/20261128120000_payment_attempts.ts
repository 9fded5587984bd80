import type { Kysely } from 'kysely';

/**
 * Card and ACH payments in phases (docs/payments.md#phases): a payment whose processor call is
 * under way, or whose outcome is not yet recorded, is a row here. It holds stock (payment_holds), the
 * Idempotency-Key it claimed and the payment to write once the processor approves (never a card or
 * account number). A row whose lease has passed is in doubt: the next start, the sweeper or a retry
 * under its key asks the processor and records or voids it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('holds', 'text', (c) => c.notNull())
    .addColumn('payment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_attempts_key')
    .on('payment_attempts')
    .columns(['client_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('payment_attempts_lease')
    .on('payment_attempts')
    .column('lease_until')
    .execute();
  // Stock an attempt holds: what another payment can take is the item's quantity less its holds.
  await db.schema
    .createTable('payment_holds')
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_holds_pkey', ['attempt_id', 'item_id'])
    .execute();
  await db.schema.createIndex('payment_holds_item').on('payment_holds').column('item_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_holds').execute();
  await db.schema.dropTable('payment_attempts').execute();
}
