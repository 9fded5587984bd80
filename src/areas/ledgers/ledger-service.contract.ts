import { Type, type Static } from '@sinclair/typebox';
import { serviceTerms, type LedgerService } from './ledgers.types';
import { Day, Money, Nullable, TextFields, Uuid } from '../../contract/kit';
import { SnakeCaseKeys } from '../../kernel/names';

const terms = new SnakeCaseKeys(serviceTerms);

/** Contract 2.4 service object. */
export const schema = Type.Object(
  {
    id: Uuid(),
    effective_date: Day(),
    cancel_date: Nullable(Day()),
    data: TextFields(terms.keys),
    amount: Money(),
  },
  { $id: 'LedgerService' },
);

export function toContract(service: LedgerService): Static<typeof schema> {
  return {
    id: service.id,
    effective_date: service.effectiveDate,
    cancel_date: service.cancelDate,
    data: terms.toSnakeCase(service.data),
    amount: service.amount,
  };
}
