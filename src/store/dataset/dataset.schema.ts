import type { JSONSchema } from 'json-schema-to-ts';

// Shapes many fields share, each written once; the JSON has each in full where it stands.
const uuid = { type: 'string', format: 'uuid' } as const;
const day = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;
const instant = { type: 'string', format: 'date-time', description: 'ISO 8601 with UTC offset' } as const;
const money = { type: 'number', minimum: 0, description: 'money: at most two decimal places' } as const;
const decimalText = {
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description: 'decimal number held in a string',
} as const;

/** A list of records: each an object of `properties` (no others), `required` named. */
const records = <const Properties extends object, const Required extends readonly string[]>(
  properties: Properties,
  required: Required,
  description?: string,
) =>
  ({
    type: 'array',
    items: { type: 'object', additionalProperties: false, properties, required, description },
  }) as const;

/** A ledger's policies or services: the same record, told apart by the terms in its `data`. */
const ledgerCharges = <const Terms extends object, const Required extends readonly string[]>(
  terms: Terms,
  required: Required,
) =>
  records(
    {
      id: uuid,
      ledger_id: uuid,
      effective_date: day,
      cancel_date: { type: ['string', 'null'], format: 'date' },
      amount: money,
      data: { type: 'object', additionalProperties: false, properties: terms, required },
    },
    ['id', 'ledger_id', 'effective_date', 'amount', 'data'],
  );

/**
 * The dataset file: what `import` loads and `seed` writes, written once. The import validates
 * files against it (dataset.validate.ts), dataset.types.ts derives the TypeScript types from it,
 * and it is the published dataset.schema.json (test/store/dataset-schema.test.ts keeps them equal).
 */
export const datasetSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'facility-ops/dataset.schema.json',
  title: 'Facility Operations dataset, version 1',
  description:
    'What `facility-ops import <file>` loads and what `facility-ops seed` generates. Every record is keyed by its id; importing the same id again updates the record. References must resolve inside the file or the database, or the whole import is refused and nothing is written. Every list is optional.',
  type: 'object',
  additionalProperties: false,
  required: ['version'],
  properties: {
    version: { const: 1 },
    companies: records({ id: uuid, name: { type: 'string', minLength: 1 } }, ['id', 'name']),
    facilities: records(
      {
        id: uuid,
        company_id: uuid,
        name: { type: 'string', minLength: 1 },
        time_zone: {
          type: 'string',
          default: 'UTC',
          description: "IANA zone; 'today' is this zone's date",
        },
        tenant_payments_disabled: { type: 'boolean', default: false },
      },
      ['id', 'company_id', 'name'],
    ),
    flippers: records(
      {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        enabled_globally: { type: 'boolean', default: false },
        company_ids: { type: 'array', items: uuid },
        facility_ids: { type: 'array', items: uuid },
      },
      ['name'],
      'A feature flag. Enabled for a facility when enabled globally, for its company, or for it.',
    ),
    tenants: records(
      {
        id: uuid,
        facility_id: uuid,
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        email: { type: ['string', 'null'], format: 'email' },
        phone: { type: ['string', 'null'] },
      },
      ['id', 'facility_id', 'first_name', 'last_name'],
      "tenant_name in responses is first_name + ' ' + last_name",
    ),
    units: records(
      {
        id: uuid,
        facility_id: uuid,
        name: { type: 'string', minLength: 1 },
        rate: money,
      },
      ['id', 'facility_id', 'name', 'rate'],
    ),
    ledgers: records(
      {
        id: uuid,
        facility_id: uuid,
        tenant_id: uuid,
        unit_id: uuid,
      },
      ['id', 'facility_id', 'tenant_id', 'unit_id'],
      "A tenant's rental of a unit; tenant and unit are in the same facility",
    ),
    ledger_insurances: ledgerCharges(
      {
        description: { type: 'string' },
        retain_type: { type: 'string' },
        product_code: { type: 'string' },
        policy_number: { type: 'string' },
        retain_amount: decimalText,
        coverage_amount: decimalText,
        coverage_percentage: decimalText,
        insurance_provider_key: { type: 'string' },
      },
      [
        'description',
        'retain_type',
        'product_code',
        'policy_number',
        'retain_amount',
        'coverage_amount',
        'coverage_percentage',
        'insurance_provider_key',
      ],
    ),
    ledger_services: ledgerCharges({ description: { type: 'string' }, product_code: { type: 'string' } }, [
      'description',
      'product_code',
    ]),
    ledger_discounts: records(
      {
        id: uuid,
        ledger_id: uuid,
        name: { type: 'string' },
        kind: { type: 'string', examples: ['always', 'limited'] },
        description: { type: 'string' },
        start_date: day,
        end_date: { type: ['string', 'null'], format: 'date' },
        min_occupancy_months: { type: ['integer', 'null'], minimum: 0 },
      },
      ['id', 'ledger_id', 'name', 'kind', 'description', 'start_date'],
    ),
    rate_applied_actions: records(
      {
        id: uuid,
        facility_id: uuid,
        rate_info: {
          type: 'object',
          additionalProperties: false,
          properties: {
            applied_rate: {
              type: 'object',
              additionalProperties: false,
              properties: {
                name: { type: 'string' },
                amount: money,
              },
              required: ['name', 'amount'],
            },
            standard_rate: money,
          },
          required: ['applied_rate', 'standard_rate'],
        },
        source: { type: 'string' },
        completed_on: day,
        completed_by: { type: 'string' },
        employee_id: { type: 'string' },
        user_id: { type: 'string', description: 'UUID or empty string' },
        time_completed: instant,
        event: { type: 'string', examples: ['MoveInUnitEvent'] },
        old_ledger_id: { type: 'string', description: 'UUID or empty string' },
        new_ledger_id: uuid,
        unit_id: uuid,
        lead_id: uuid,
      },
      [
        'id',
        'facility_id',
        'rate_info',
        'source',
        'completed_on',
        'time_completed',
        'event',
        'new_ledger_id',
        'unit_id',
        'lead_id',
      ],
      "The id is the record's own key; the contract's response has no id field.",
    ),
    events: records(
      {
        id: uuid,
        facility_id: uuid,
        type: { enum: ['move_in_unit_event', 'move_out_unit_event', 'successful_payment_event'] },
        ledger_id: { type: ['string', 'null'], format: 'uuid' },
        created_at: instant,
      },
      ['id', 'facility_id', 'type', 'created_at'],
    ),
    event_documents: records(
      {
        id: uuid,
        event_id: uuid,
        description: { type: 'string' },
        type: { type: 'string', default: 'PrintTemplate' },
        is_relevant: { type: 'boolean', default: true },
        esignable: { type: 'boolean', default: false },
        created_at: instant,
        body: {
          type: 'string',
          description:
            'Template text rendered into the PDF; {{tenant_name}}, {{unit_name}}, {{facility_name}}, {{date}} are filled in',
        },
      },
      ['id', 'event_id', 'description', 'created_at'],
    ),
    invoiceable_items: records(
      {
        id: uuid,
        facility_id: uuid,
        kind: { enum: ['fee', 'insurance', 'service', 'retail'] },
        product_code: { type: 'string' },
        description: { type: 'string' },
        short_description: { type: ['string', 'null'] },
        required_at_move_in: { type: 'boolean', default: false },
        required_at_transfer: { type: 'boolean', default: false },
        show_in_sales_center: { type: 'boolean', default: true },
        invoiceable_amounts: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: uuid,
              amount: money,
              kind: { enum: ['amount', 'percent'] },
              limit: { type: ['number', 'null'] },
            },
            required: ['id', 'amount', 'kind'],
          },
          description: "One tier: amount is that tier's amount. Several: amount is the string Variable.",
        },
        tax_total: money,
        total: money,
        fee_category: {
          enum: ['security_deposit', 'online_payment', 'reservation', 'move_in', 'transfer', 'other'],
          description: 'fees only',
        },
        coverage_amount: money,
        coverage_percentage: { type: 'number' },
        provider_name: { type: 'string' },
        provider_key: { type: 'string' },
        quantity: { type: 'integer', minimum: 0, description: 'retail only: units in stock' },
        is_rental_center_lock: { type: 'boolean', default: false },
        rental_center_eligible: { type: 'boolean', default: false },
      },
      [
        'id',
        'facility_id',
        'kind',
        'product_code',
        'description',
        'invoiceable_amounts',
        'tax_total',
        'total',
      ],
      'Retail items have exactly one amount tier and total = amount + tax_total.',
    ),
    payment_methods: records(
      {
        id: uuid,
        facility_id: uuid,
        tenant_id: { type: ['string', 'null'], format: 'uuid' },
        kind: { enum: ['ach', 'credit_card', 'check', 'cash', 'card_swipe', 'money_order'] },
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        reuseable: { type: 'boolean', default: true },
        card_last4: { type: ['string', 'null'], pattern: '^[0-9]{4}$' },
        card_type: { type: ['string', 'null'] },
        expiration_date: { type: ['string', 'null'], pattern: '^(0[1-9]|1[0-2])/[0-9]{2}$' },
        billing_address: { type: ['object', 'null'] },
      },
      ['id', 'facility_id', 'kind', 'first_name', 'last_name'],
      'A saved method; never a full card or account number',
    ),
    rate_changes: records(
      {
        id: uuid,
        facility_id: uuid,
        tenant_id: uuid,
        unit_id: uuid,
        changed_at: instant,
        old_rate: money,
        new_rate: money,
        effective_on_date: day,
        created_by: { type: ['integer', 'null'] },
      },
      [
        'id',
        'facility_id',
        'tenant_id',
        'unit_id',
        'changed_at',
        'old_rate',
        'new_rate',
        'effective_on_date',
      ],
    ),
    client_applications: records(
      {
        id: uuid,
        company_id: uuid,
        name: { type: 'string' },
        consumer_key: { type: 'string', minLength: 16 },
        consumer_secret: { type: 'string', minLength: 16 },
        bearer_token: { type: ['string', 'null'], minLength: 24 },
      },
      ['id', 'company_id', 'name', 'consumer_key', 'consumer_secret'],
      'For test and demo data; in production make clients with `facility-ops clients create`.',
    ),
  },
} as const satisfies JSONSchema;

/**
 * The text of `dataset.schema.json` in the project's folder (`npm run schema:emit` writes it,
 * `npm run check` holds it fresh): the published file's bytes, two-space indented, no final newline.
 */
export function datasetSchemaFileText(): string {
  return JSON.stringify(datasetSchema, null, 2);
}
