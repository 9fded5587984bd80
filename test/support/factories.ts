import { randomBytes, randomUUID } from 'node:crypto';
import type {
  Dataset,
  DatasetClientApplication,
  DatasetCompany,
  DatasetEvent,
  DatasetEventDocument,
  DatasetFacility,
  DatasetInvoiceableItem,
  DatasetLedger,
  DatasetLedgerDiscount,
  DatasetLedgerInsurance,
  DatasetLedgerService,
  DatasetRateAppliedAction,
  DatasetRateChange,
  DatasetTenant,
  DatasetUnit,
} from '../../src/store/dataset/dataset.types';

/** Builders of dataset records with overrides; each call makes new ids. */
export const buildCompany = (o: Partial<DatasetCompany> = {}): DatasetCompany => ({
  id: randomUUID(),
  name: 'Acme Storage',
  ...o,
});

export const buildFacility = (o: Partial<DatasetFacility> & { company_id: string }): DatasetFacility => ({
  id: randomUUID(),
  name: 'Main Street',
  time_zone: 'America/New_York',
  tenant_payments_disabled: false,
  ...o,
});

export const buildClient = (
  o: Partial<DatasetClientApplication> & { company_id: string },
): DatasetClientApplication => ({
  id: randomUUID(),
  name: 'Front Desk',
  consumer_key: randomBytes(12).toString('hex'),
  consumer_secret: randomBytes(24).toString('base64url'),
  bearer_token: randomBytes(24).toString('base64url'),
  ...o,
});

export const buildTenant = (o: Partial<DatasetTenant> & { facility_id: string }): DatasetTenant => ({
  id: randomUUID(),
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+15555550100',
  ...o,
});

export const buildUnit = (o: Partial<DatasetUnit> & { facility_id: string }): DatasetUnit => ({
  id: randomUUID(),
  name: 'A-101',
  rate: 99.5,
  ...o,
});

export const buildLedger = (
  o: Partial<DatasetLedger> & { facility_id: string; tenant_id: string; unit_id: string },
): DatasetLedger => ({
  id: randomUUID(),
  ...o,
});

export const buildInsurance = (
  o: Partial<DatasetLedgerInsurance> & { ledger_id: string },
): DatasetLedgerInsurance => ({
  id: randomUUID(),
  effective_date: '2026-01-01',
  cancel_date: null,
  amount: 12.5,
  data: {
    description: 'Tenant protection 2000',
    retain_type: 'percent',
    product_code: 'INS-2000',
    policy_number: 'POL-1',
    retain_amount: '10.0',
    coverage_amount: '2000.0',
    coverage_percentage: '100.0',
    insurance_provider_key: 'safeguard',
  },
  ...o,
});

export const buildService = (
  o: Partial<DatasetLedgerService> & { ledger_id: string },
): DatasetLedgerService => ({
  id: randomUUID(),
  effective_date: '2026-01-01',
  cancel_date: null,
  amount: 5,
  data: { description: 'Climate control', product_code: 'SVC-CLIMATE' },
  ...o,
});

export const buildDiscount = (
  o: Partial<DatasetLedgerDiscount> & { ledger_id: string },
): DatasetLedgerDiscount => ({
  id: randomUUID(),
  name: 'First month free',
  kind: 'always',
  description: '100% off the first month',
  start_date: '2026-01-01',
  end_date: null,
  min_occupancy_months: null,
  ...o,
});

export const buildRateAppliedAction = (
  o: Partial<DatasetRateAppliedAction> & { facility_id: string; new_ledger_id: string; unit_id: string },
): DatasetRateAppliedAction => ({
  id: randomUUID(),
  rate_info: { applied_rate: { name: 'Web rate', amount: 89 }, standard_rate: 99.5 },
  source: 'Kiosk',
  completed_on: '2026-11-20',
  completed_by: '',
  employee_id: '',
  user_id: '',
  time_completed: '2026-11-20T15:00:00Z',
  event: 'MoveInUnitEvent',
  old_ledger_id: '',
  lead_id: randomUUID(),
  ...o,
});

export const buildEvent = (o: Partial<DatasetEvent> & { facility_id: string }): DatasetEvent => ({
  id: randomUUID(),
  type: 'move_in_unit_event',
  ledger_id: null,
  created_at: '2026-11-20T15:00:00Z',
  ...o,
});

export const buildDocument = (
  o: Partial<DatasetEventDocument> & { event_id: string },
): DatasetEventDocument => ({
  id: randomUUID(),
  description: 'Lease agreement',
  type: 'PrintTemplate',
  is_relevant: true,
  esignable: true,
  created_at: '2026-11-20T15:00:00Z',
  body: 'Lease between {{facility_name}} and {{tenant_name}} for unit {{unit_name}} on {{date}}.',
  ...o,
});

export const buildItem = (
  o: Partial<DatasetInvoiceableItem> & { facility_id: string },
): DatasetInvoiceableItem => {
  const kind = o.kind ?? 'retail';
  const amount = 10;
  const base: DatasetInvoiceableItem = {
    id: randomUUID(),
    facility_id: o.facility_id,
    kind,
    product_code: `${kind.toUpperCase()}-1`,
    description: `${kind} item`,
    short_description: null,
    required_at_move_in: false,
    required_at_transfer: false,
    show_in_sales_center: true,
    invoiceable_amounts: [{ id: randomUUID(), amount, kind: 'amount', limit: null }],
    tax_total: 0.8,
    total: 10.8,
  };
  if (kind === 'retail')
    Object.assign(base, { quantity: 10, is_rental_center_lock: false, rental_center_eligible: false });
  if (kind === 'fee') base.fee_category = 'other';
  if (kind === 'insurance') {
    Object.assign(base, {
      coverage_amount: 2000,
      coverage_percentage: 100,
      provider_name: 'SafeGuard',
      provider_key: 'safeguard',
    });
  }
  return { ...base, ...o };
};

export const buildRateChange = (
  o: Partial<DatasetRateChange> & { facility_id: string; tenant_id: string; unit_id: string },
): DatasetRateChange => ({
  id: randomUUID(),
  changed_at: '2026-11-01T12:00:00Z',
  old_rate: 90,
  new_rate: 99,
  effective_on_date: '2026-12-01',
  created_by: null,
  ...o,
});

/** The smallest world a request needs: a company, a facility, a client, plus a foreign company. */
export interface World {
  company: DatasetCompany;
  facility: DatasetFacility;
  client: DatasetClientApplication;
  otherCompany: DatasetCompany;
  otherFacility: DatasetFacility;
  otherClient: DatasetClientApplication;
}

export function buildWorld(): World {
  const company = buildCompany();
  const facility = buildFacility({ company_id: company.id });
  const client = buildClient({ company_id: company.id });
  const otherCompany = buildCompany({ name: 'Other Storage' });
  const otherFacility = buildFacility({ company_id: otherCompany.id, name: 'Elsewhere' });
  const otherClient = buildClient({ company_id: otherCompany.id, name: 'Other Desk' });
  return { company, facility, client, otherCompany, otherFacility, otherClient };
}

export function worldDataset(world: World): Dataset {
  return {
    version: 1,
    companies: [world.company, world.otherCompany],
    facilities: [world.facility, world.otherFacility],
    client_applications: [world.client, world.otherClient],
  };
}
