import { Type, type Static } from '@sinclair/typebox';
import { insuranceTerms, type LedgerInsurance } from './ledgers.types';
import { Day, Money, Nullable, TextFields, Uuid } from '../../contract/kit';
import { SnakeCaseKeys } from '../../kernel/names';

const terms = new SnakeCaseKeys(insuranceTerms);

/** Contract 2.4 insurance object. */
export const schema = Type.Object(
  {
    id: Uuid(),
    effective_date: Day(),
    cancel_date: Nullable(Day()),
    data: TextFields(terms.keys),
    amount: Money(),
  },
  { $id: 'LedgerInsurance' },
);

export function toContract(insurance: LedgerInsurance): Static<typeof schema> {
  return {
    id: insurance.id,
    effective_date: insurance.effectiveDate,
    cancel_date: insurance.cancelDate,
    data: terms.toSnakeCase(insurance.data),
    amount: insurance.amount,
  };
}
