import { cents, integer, nullable, text, type TablesOf } from '../../kernel/columns';

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

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const ledgersTables = {
  ledgers,
  ledger_insurances: ledgerInsurances,
  ledger_services: ledgerServices,
  ledger_discounts: ledgerDiscounts,
};

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof ledgersTables> {}
}
