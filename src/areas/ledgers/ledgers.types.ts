export interface Ledger {
  id: string;
  facilityId: string;
  tenantId: string;
  unitId: string;
}

/** An insurance policy; its terms are kept together in `data`, as the contract (2.4) writes them. */
export interface LedgerInsurance {
  id: string;
  ledgerId: string;
  effectiveDate: string;
  cancelDate: string | null;
  data: LedgerInsuranceData;
  amount: number;
}

export interface LedgerInsuranceData {
  description: string;
  retainType: string;
  productCode: string;
  policyNumber: string;
  /** Decimal numbers kept as the strings the contract writes. */
  retainAmount: string;
  coverageAmount: string;
  coveragePercentage: string;
  insuranceProviderKey: string;
}

/** A recurring service; like a policy, its terms in `data`. */
export interface LedgerService {
  id: string;
  ledgerId: string;
  effectiveDate: string;
  cancelDate: string | null;
  data: LedgerServiceData;
  amount: number;
}

export interface LedgerServiceData {
  description: string;
  productCode: string;
}

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
