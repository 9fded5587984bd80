import { Type, type Static } from '@sinclair/typebox';
import type { LedgerDiscount } from './ledgers.types';
import { Day, Nullable, Text, Uuid } from '../../contract/kit';

/** Contract 2.4 discount object. */
export const schema = Type.Object(
  {
    id: Uuid(),
    name: Text(),
    kind: Text(),
    description: Text(),
    start_date: Day(),
    end_date: Nullable(Day()),
    min_occupancy_months: Nullable(Type.Integer()),
  },
  { $id: 'LedgerDiscount' },
);

export function toContract(discount: LedgerDiscount): Static<typeof schema> {
  return {
    id: discount.id,
    name: discount.name,
    kind: discount.kind,
    description: discount.description,
    start_date: discount.startDate,
    end_date: discount.endDate,
    min_occupancy_months: discount.minOccupancyMonths,
  };
}
