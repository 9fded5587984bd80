/** The dataset file (`dataset.schema.json`): what `import` loads and `seed` writes. */
export interface Dataset {
  version: 1;
  companies?: DatasetCompany[];
  facilities?: DatasetFacility[];
  flippers?: DatasetFlipper[];
  tenants?: DatasetTenant[];
  units?: DatasetUnit[];
  ledgers?: DatasetLedger[];
  ledger_insurances?: DatasetLedgerInsurance[];
  ledger_services?: DatasetLedgerService[];
  ledger_discounts?: DatasetLedgerDiscount[];
  rate_applied_actions?: DatasetRateAppliedAction[];
  events?: DatasetEvent[];
  event_documents?: DatasetEventDocument[];
  invoiceable_items?: DatasetInvoiceableItem[];
  payment_methods?: DatasetPaymentMethod[];
  rate_changes?: DatasetRateChange[];
  client_applications?: DatasetClientApplication[];
}

export interface DatasetCompany {
  id: string;
  name: string;
}
export interface DatasetFacility {
  id: string;
  company_id: string;
  name: string;
  time_zone?: string;
  tenant_payments_disabled?: boolean;
}
export interface DatasetFlipper {
  name: string;
  enabled_globally?: boolean;
  company_ids?: string[];
  facility_ids?: string[];
}
export interface DatasetTenant {
  id: string;
  facility_id: string;
  first_name: string;
  last_name: string;
  email?: string | null;
  phone?: string | null;
}
export interface DatasetUnit {
  id: string;
  facility_id: string;
  name: string;
  rate: number;
}
export interface DatasetLedger {
  id: string;
  facility_id: string;
  tenant_id: string;
  unit_id: string;
}
export interface DatasetLedgerInsurance {
  id: string;
  ledger_id: string;
  effective_date: string;
  cancel_date?: string | null;
  amount: number;
  data: {
    description: string;
    retain_type: string;
    product_code: string;
    policy_number: string;
    retain_amount: string;
    coverage_amount: string;
    coverage_percentage: string;
    insurance_provider_key: string;
  };
}
export interface DatasetLedgerService {
  id: string;
  ledger_id: string;
  effective_date: string;
  cancel_date?: string | null;
  amount: number;
  data: { description: string; product_code: string };
}
export interface DatasetLedgerDiscount {
  id: string;
  ledger_id: string;
  name: string;
  kind: string;
  description: string;
  start_date: string;
  end_date?: string | null;
  min_occupancy_months?: number | null;
}
export interface DatasetRateAppliedAction {
  id: string;
  facility_id: string;
  rate_info: { applied_rate: { name: string; amount: number }; standard_rate: number };
  source: string;
  completed_on: string;
  completed_by?: string;
  employee_id?: string;
  user_id?: string;
  time_completed: string;
  event: string;
  old_ledger_id?: string;
  new_ledger_id: string;
  unit_id: string;
  lead_id: string;
}
export interface DatasetEvent {
  id: string;
  facility_id: string;
  type: 'move_in_unit_event' | 'move_out_unit_event' | 'successful_payment_event';
  ledger_id?: string | null;
  created_at: string;
}
export interface DatasetEventDocument {
  id: string;
  event_id: string;
  description: string;
  type?: string;
  is_relevant?: boolean;
  esignable?: boolean;
  created_at: string;
  body?: string;
}
export interface DatasetInvoiceableAmount {
  id: string;
  amount: number;
  kind: 'amount' | 'percent';
  limit?: number | null;
}
export interface DatasetInvoiceableItem {
  id: string;
  facility_id: string;
  kind: 'fee' | 'insurance' | 'service' | 'retail';
  product_code: string;
  description: string;
  short_description?: string | null;
  required_at_move_in?: boolean;
  required_at_transfer?: boolean;
  show_in_sales_center?: boolean;
  invoiceable_amounts: DatasetInvoiceableAmount[];
  tax_total: number;
  total: number;
  fee_category?: 'security_deposit' | 'online_payment' | 'reservation' | 'move_in' | 'transfer' | 'other';
  coverage_amount?: number;
  coverage_percentage?: number;
  provider_name?: string;
  provider_key?: string;
  quantity?: number;
  is_rental_center_lock?: boolean;
  rental_center_eligible?: boolean;
}
export interface DatasetPaymentMethod {
  id: string;
  facility_id: string;
  tenant_id?: string | null;
  kind: 'ach' | 'credit_card' | 'check' | 'cash' | 'card_swipe' | 'money_order';
  first_name: string;
  last_name: string;
  reuseable?: boolean;
  card_last4?: string | null;
  card_type?: string | null;
  expiration_date?: string | null;
  billing_address?: Record<string, unknown> | null;
}
export interface DatasetRateChange {
  id: string;
  facility_id: string;
  tenant_id: string;
  unit_id: string;
  changed_at: string;
  old_rate: number;
  new_rate: number;
  effective_on_date: string;
  created_by?: number | null;
}
export interface DatasetClientApplication {
  id: string;
  company_id: string;
  name: string;
  consumer_key: string;
  consumer_secret: string;
  bearer_token?: string | null;
}
