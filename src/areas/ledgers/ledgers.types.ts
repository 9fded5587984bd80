export interface Ledger {
  id: string;
  facilityId: string;
  tenantId: string;
  unitId: string;
}

/**
 * A charge on a ledger, an insurance policy or a recurring service: its terms kept together in
 * `data`, as the contract (2.4) writes them.
 */
export interface LedgerCharge<Data> {
  id: string;
  ledgerId: string;
  effectiveDate: string;
  cancelDate: string | null;
  data: Data;
  amount: number;
}

export type LedgerInsurance = LedgerCharge<LedgerInsuranceData>;

/**
 * A policy's terms, by name, in the order the contract (2.4) writes them. Each is a string: the
 * amounts and the percentage are decimal numbers kept as the strings the contract writes. The REST
 * `data` object and the store's columns name them in snake_case.
 */
export const insuranceTerms = [
  'description',
  'retainType',
  'productCode',
  'policyNumber',
  'retainAmount',
  'coverageAmount',
  'coveragePercentage',
  'insuranceProviderKey',
] as const;

export type LedgerInsuranceData = Record<(typeof insuranceTerms)[number], string>;

export type LedgerService = LedgerCharge<LedgerServiceData>;

/** A service's terms, by name, as for a policy. */
export const serviceTerms = ['description', 'productCode'] as const;

export type LedgerServiceData = Record<(typeof serviceTerms)[number], string>;

export interface LedgerDiscount {
  id: string;
  ledgerId: string;
  name: string;
  kind: string;
  description: string;
  startDate: string;
  endDate: string | null;
  minOccupancyMonths: number | null;
}

export interface LedgerInsuranceServicesAndDiscounts {
  ledger: Ledger;
  /** The current policy, or null when there is none. */
  insurance: LedgerInsurance | null;
  services: LedgerService[];
  discounts: LedgerDiscount[];
}
