import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/** Every entity of the dataset, plus the tables of payments, sessions and the outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Sort keys compare byte-wise on both dialects, so ordering is identical.
  const sortText = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  const flag = 'integer';

  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('facilities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('tenant_payments_disabled', flag, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('facilities_company').on('facilities').column('company_id').execute();

  await db.schema
    .createTable('flippers')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('enabled_globally', flag, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('flipper_actors')
    .addColumn('flipper_name', 'text', (c) => c.notNull().references('flippers.name').onDelete('cascade'))
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('flipper_actors_pk', ['flipper_name', 'actor_type', 'actor_id'])
    .execute();
  await db.schema
    .createIndex('flipper_actors_actor')
    .on('flipper_actors')
    .columns(['actor_type', 'actor_id'])
    .execute();

  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .execute();
  await db.schema.createIndex('tenants_facility').on('tenants').column('facility_id').execute();

  await db.schema
    .createTable('units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rate_cents', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('units_facility').on('units').column('facility_id').execute();

  await db.schema
    .createTable('ledgers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .execute();
  await db.schema.createIndex('ledgers_facility').on('ledgers').column('facility_id').execute();
  await db.schema.createIndex('ledgers_tenant').on('ledgers').column('tenant_id').execute();
  await db.schema.createIndex('ledgers_unit').on('ledgers').column('unit_id').execute();

  await db.schema
    .createTable('ledger_insurances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ledger_id', 'text', (c) => c.notNull().references('ledgers.id'))
    .addColumn('effective_date', 'text', (c) => c.notNull())
    .addColumn('cancel_date', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('retain_type', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('policy_number', 'text', (c) => c.notNull())
    .addColumn('retain_amount', 'text', (c) => c.notNull())
    .addColumn('coverage_amount', 'text', (c) => c.notNull())
    .addColumn('coverage_percentage', 'text', (c) => c.notNull())
    .addColumn('insurance_provider_key', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_insurances_ledger')
    .on('ledger_insurances')
    .columns(['ledger_id', 'effective_date'])
    .execute();

  await db.schema
    .createTable('ledger_services')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ledger_id', 'text', (c) => c.notNull().references('ledgers.id'))
    .addColumn('effective_date', 'text', (c) => c.notNull())
    .addColumn('cancel_date', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_services_ledger')
    .on('ledger_services')
    .columns(['ledger_id', 'effective_date'])
    .execute();

  await db.schema
    .createTable('ledger_discounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ledger_id', 'text', (c) => c.notNull().references('ledgers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('min_occupancy_months', 'integer')
    .execute();
  await db.schema
    .createIndex('ledger_discounts_ledger')
    .on('ledger_discounts')
    .columns(['ledger_id', 'start_date'])
    .execute();

  await db.schema
    .createTable('rate_applied_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('applied_rate_name', 'text', (c) => c.notNull())
    .addColumn('applied_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('standard_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('completed_on', 'text', (c) => c.notNull())
    .addColumn('completed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('employee_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_completed', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('old_ledger_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('new_ledger_id', 'text', (c) => c.notNull().references('ledgers.id'))
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('lead_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_applied_actions_range')
    .on('rate_applied_actions')
    .columns(['facility_id', 'completed_on', 'time_completed', 'id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ledger_id', 'text', (c) => c.references('ledgers.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_facility')
    .on('events')
    .columns(['facility_id', 'created_at'])
    .execute();
  await db.schema.createIndex('events_ledger').on('events').column('ledger_id').execute();

  await db.schema
    .createTable('event_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('PrintTemplate'))
    .addColumn('is_relevant', flag, (c) => c.notNull().defaultTo(1))
    .addColumn('esignable', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('event_documents_event')
    .on('event_documents')
    .columns(['event_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('invoiceable_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('short_description', 'text')
    .addColumn('required_at_move_in', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('required_at_transfer', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('show_in_sales_center', flag, (c) => c.notNull().defaultTo(1))
    .addColumn('tax_total_cents', 'integer', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('fee_category', 'text')
    .addColumn('coverage_amount_cents', 'integer')
    .addColumn('coverage_percentage', 'double precision')
    .addColumn('provider_name', 'text')
    .addColumn('provider_key', 'text')
    .addColumn('quantity', 'integer', (c) => c.check(sql`quantity is null or quantity >= 0`))
    .addColumn('is_rental_center_lock', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('rental_center_eligible', flag, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('invoiceable_items_facility_kind')
    .on('invoiceable_items')
    .columns(['facility_id', 'kind'])
    .execute();

  await db.schema
    .createTable('invoiceable_amounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoiceable_item_id', 'text', (c) =>
      c.notNull().references('invoiceable_items.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('limit_value', 'double precision')
    .execute();
  await db.schema
    .createIndex('invoiceable_amounts_item')
    .on('invoiceable_amounts')
    .columns(['invoiceable_item_id', 'position'])
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('reuseable', flag, (c) => c.notNull().defaultTo(1))
    .addColumn('card_last4', 'text')
    .addColumn('card_type', 'text')
    .addColumn('expiration_date', 'text')
    .addColumn('billing_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_methods_facility')
    .on('payment_methods')
    .columns(['facility_id', 'tenant_id'])
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey().references('events.id'))
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id'))
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('change_due_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('success', flag, (c) => c.notNull())
    .addColumn('paid_at', 'text', (c) => c.notNull())
    .addColumn('gateway_reference', 'text')
    .execute();

  await db.schema
    .createTable('payment_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('invoiceable_item_id', 'text', (c) => c.notNull().references('invoiceable_items.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_total_cents', 'integer', (c) => c.notNull())
    .addColumn('line_total_cents', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_lines_payment').on('payment_lines').column('payment_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['client_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expiry')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('rate_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('old_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('new_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('effective_on_date', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('facility_sort', sortText, (c) => c.notNull())
    .addColumn('tenant_sort', sortText, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_changes_order')
    .on('rate_changes')
    .columns(['company_id', 'facility_sort', 'tenant_sort', 'changed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('rate_changes_window')
    .on('rate_changes')
    .columns(['company_id', 'changed_at'])
    .execute();
  await db.schema.createIndex('rate_changes_tenant').on('rate_changes').column('tenant_id').execute();
  await db.schema.createIndex('rate_changes_facility').on('rate_changes').column('facility_id').execute();

  await db.schema
    .createTable('client_applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('consumer_key', 'text', (c) => c.notNull().unique())
    .addColumn('consumer_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bearer_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('client_applications.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_nonces')
    .addColumn('consumer_key', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_nonces_pk', ['consumer_key', 'nonce'])
    .execute();
  await db.schema.createIndex('oauth_nonces_expiry').on('oauth_nonces').column('expires_at').execute();

  await db.schema
    .createTable('note_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id'))
    .addColumn('unit_id', 'text', (c) => c.references('units.id'))
    .addColumn('ledger_id', 'text', (c) => c.references('ledgers.id'))
    .addColumn('user_id', 'text')
    .addColumn('created_by_client_id', 'text', (c) => c.notNull().references('client_applications.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('note_events_tenant').on('note_events').column('tenant_id').execute();
  await db.schema.createIndex('note_events_unit').on('note_events').column('unit_id').execute();
  await db.schema.createIndex('note_events_ledger').on('note_events').column('ledger_id').execute();

  await db.schema
    .createTable('notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('note_event_id', 'text', (c) => c.notNull().references('note_events.id'))
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notes_event').on('notes').column('note_event_id').execute();

  await db.schema
    .createTable('move_in_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id'))
    .addColumn('move_in_date', 'text', (c) => c.notNull())
    .addColumn('rent_cents', 'integer', (c) => c.notNull())
    .addColumn('fees', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('session_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('move_in_sessions.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('esignable', flag, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('session_documents_session')
    .on('session_documents')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('event_id', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_messages_due')
    .on('outbox_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('outbox_messages_facility')
    .on('outbox_messages')
    .columns(['facility_id', 'created_at'])
    .execute();
}

const TABLES_IN_DROP_ORDER = [
  'outbox_messages',
  'session_documents',
  'move_in_sessions',
  'notes',
  'note_events',
  'oauth_nonces',
  'bearer_tokens',
  'client_applications',
  'rate_changes',
  'idempotency_keys',
  'payment_lines',
  'payments',
  'payment_methods',
  'invoiceable_amounts',
  'invoiceable_items',
  'event_documents',
  'events',
  'rate_applied_actions',
  'ledger_discounts',
  'ledger_services',
  'ledger_insurances',
  'ledgers',
  'units',
  'tenants',
  'flipper_actors',
  'flippers',
  'facilities',
  'companies',
];

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES_IN_DROP_ORDER) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
