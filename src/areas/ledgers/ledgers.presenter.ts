import type { LedgerDiscount, LedgerInsurance, LedgerService } from './ledgers.types';

/** A policy as both transports show it: REST 2.4's insurance object, in camelCase. */
export interface LedgerInsuranceView {
  id: string;
  effectiveDate: string;
  cancelDate: string | null;
  data: {
    description: string;
    retainType: string;
    productCode: string;
    policyNumber: string;
    retainAmount: string;
    coverageAmount: string;
    coveragePercentage: string;
    insuranceProviderKey: string;
  };
  amount: number;
}

export interface LedgerServiceView {
  id: string;
  effectiveDate: string;
  cancelDate: string | null;
  data: { description: string; productCode: string };
  amount: number;
}

export interface LedgerDiscountView {
  id: string;
  name: string;
  kind: string;
  description: string;
  startDate: string;
  endDate: string | null;
  minOccupancyMonths: number | null;
}

export function presentInsurance(insurance: LedgerInsurance): LedgerInsuranceView {
  return {
    id: insurance.id,
    effectiveDate: insurance.effectiveDate,
    cancelDate: insurance.cancelDate,
    data: {
      description: insurance.description,
      retainType: insurance.retainType,
      productCode: insurance.productCode,
      policyNumber: insurance.policyNumber,
      retainAmount: insurance.retainAmount,
      coverageAmount: insurance.coverageAmount,
      coveragePercentage: insurance.coveragePercentage,
      insuranceProviderKey: insurance.insuranceProviderKey,
    },
    amount: insurance.amount,
  };
}

export function presentService(service: LedgerService): LedgerServiceView {
  return {
    id: service.id,
    effectiveDate: service.effectiveDate,
    cancelDate: service.cancelDate,
    data: { description: service.description, productCode: service.productCode },
    amount: service.amount,
  };
}

export function presentDiscount(discount: LedgerDiscount): LedgerDiscountView {
  return {
    id: discount.id,
    name: discount.name,
    kind: discount.kind,
    description: discount.description,
    startDate: discount.startDate,
    endDate: discount.endDate,
    minOccupancyMonths: discount.minOccupancyMonths,
  };
}
