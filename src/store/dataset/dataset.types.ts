import type { FromSchema } from 'json-schema-to-ts';
import type { datasetSchema } from './dataset.schema';

/**
 * The dataset file (`dataset.schema.ts`): what `import` loads and `seed` writes. The types are read
 * off the schema, so a field is written once; a field with a default stays optional, as in a file.
 */
export type Dataset = FromSchema<typeof datasetSchema, { keepDefaultedPropertiesOptional: true }>;

/** A record of one of the file's lists. */
type RecordOf<List extends Exclude<keyof Dataset, 'version'>> = Required<Dataset>[List][number];

export type DatasetCompany = RecordOf<'companies'>;
export type DatasetFacility = RecordOf<'facilities'>;
export type DatasetFlipper = RecordOf<'flippers'>;
export type DatasetTenant = RecordOf<'tenants'>;
export type DatasetUnit = RecordOf<'units'>;
export type DatasetLedger = RecordOf<'ledgers'>;
export type DatasetLedgerInsurance = RecordOf<'ledger_insurances'>;
export type DatasetLedgerService = RecordOf<'ledger_services'>;
export type DatasetLedgerDiscount = RecordOf<'ledger_discounts'>;
export type DatasetRateAppliedAction = RecordOf<'rate_applied_actions'>;
export type DatasetEvent = RecordOf<'events'>;
export type DatasetEventDocument = RecordOf<'event_documents'>;
export type DatasetInvoiceableItem = RecordOf<'invoiceable_items'>;
export type DatasetInvoiceableAmount = DatasetInvoiceableItem['invoiceable_amounts'][number];
export type DatasetPaymentMethod = RecordOf<'payment_methods'>;
export type DatasetRateChange = RecordOf<'rate_changes'>;
export type DatasetClientApplication = RecordOf<'client_applications'>;
