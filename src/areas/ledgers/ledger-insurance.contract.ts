import { Type, type Static } from '@sinclair/typebox';
import type { LedgerInsurance } from './ledgers.types';
import { Day, Money, Nullable, Text, Uuid } from '../../contract/kit';

/** Contract 2.4 insurance object. */
export const schema = Type.Object(
  {
    id: Uuid(),
    effective_date: Day(),
    cancel_date: Nullable(Day()),
    data: Type.Object({
      description: Text(),
      retain_type: Text(),
      product_code: Text(),
      policy_number: Text(),
      retain_amount: Text(),
      coverage_amount: Text(),
      coverage_percentage: Text(),
      insurance_provider_key: Text(),
    }),
    amount: Money(),
  },
  { $id: 'LedgerInsurance' },
);

export function toContract(insurance: LedgerInsurance): Static<typeof schema> {
  const data = insurance.data;
  return {
    id: insurance.id,
    effective_date: insurance.effectiveDate,
    cancel_date: insurance.cancelDate,
    data: {
      description: data.description,
      retain_type: data.retainType,
      product_code: data.productCode,
      policy_number: data.policyNumber,
      retain_amount: data.retainAmount,
      coverage_amount: data.coverageAmount,
      coverage_percentage: data.coveragePercentage,
      insurance_provider_key: data.insuranceProviderKey,
    },
    amount: insurance.amount,
  };
}
