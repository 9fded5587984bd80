export interface Ledger {
  id: string;
  facilityId: string;
  tenantId: string;
  unitId: string;
}

export interface LedgerInsurance {
  id: string;
  ledgerId: string;
  effectiveDate: string;
  cancelDate: string | null;
  description: string;
  retainType: string;
  productCode: string;
  policyNumber: string;
  /** Decimal numbers kept as the strings the contract writes. */
  retainAmount: string;
  coverageAmount: string;
  coveragePercentage: string;
  insuranceProviderKey: string;
  amount: number;
}

export interface LedgerService {
  id: string;
  ledgerId: string;
  effectiveDate: string;
  cancelDate: string | null;
  description: string;
  productCode: string;
  amount: number;
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
