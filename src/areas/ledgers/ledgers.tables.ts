import { cents, integer, nullable, text } from '../../kernel/columns';

/** The tables of ledgers and what hangs off them (composed into the store's Database). */
export const ledgers = { id: text, facility_id: text, tenant_id: text, unit_id: text };

/** The columns a policy and a service share: their keys, dates and amount. */
export const ledgerCharge = {
  id: text,
  ledger_id: text,
  effective_date: text,
  cancel_date: nullable(text),
  amount_cents: cents,
};

/**
 * A policy's terms, one column each, in the order the contract (2.4) writes them in its `data`.
 * Each is text: the amounts and the percentage are decimal numbers kept as the strings the
 * contract writes.
 */
export const insuranceTerms = {
  description: text,
  retain_type: text,
  product_code: text,
  policy_number: text,
  retain_amount: text,
  coverage_amount: text,
  coverage_percentage: text,
  insurance_provider_key: text,
};

/** A service's terms, as for a policy. */
export const serviceTerms = { description: text, product_code: text };

export const ledgerInsurances = { ...ledgerCharge, ...insuranceTerms };

export const ledgerServices = { ...ledgerCharge, ...serviceTerms };

export const ledgerDiscounts = {
  id: text,
  ledger_id: text,
  name: text,
  kind: text,
  description: text,
  start_date: text,
  end_date: nullable(text),
  min_occupancy_months: nullable(integer),
};
