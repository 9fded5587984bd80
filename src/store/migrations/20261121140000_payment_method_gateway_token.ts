import type { Kysely } from 'kysely';

/**
 * Retail payments: a saved payment method keeps the processor's token for it, so it can be charged
 * again without the card or account number (never stored); payment lines keep the order in which
 * the request listed them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_methods').addColumn('gateway_token', 'text').execute();
  await db.schema
    .alterTable('payment_lines')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_lines').dropColumn('position').execute();
  await db.schema.alterTable('payment_methods').dropColumn('gateway_token').execute();
}
