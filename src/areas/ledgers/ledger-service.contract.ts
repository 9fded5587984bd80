import { Type, type Static } from '@sinclair/typebox';
import type { LedgerService } from './ledgers.types';
import { Day, Money, Nullable, Text, Uuid } from '../../contract/kit';

/** Contract 2.4 service object. */
export const schema = Type.Object(
  {
    id: Uuid(),
    effective_date: Day(),
    cancel_date: Nullable(Day()),
    data: Type.Object({ description: Text(), product_code: Text() }),
    amount: Money(),
  },
  { $id: 'LedgerService' },
);

export function toContract(service: LedgerService): Static<typeof schema> {
  return {
    id: service.id,
    effective_date: service.effectiveDate,
    cancel_date: service.cancelDate,
    data: { description: service.data.description, product_code: service.data.productCode },
    amount: service.amount,
  };
}
