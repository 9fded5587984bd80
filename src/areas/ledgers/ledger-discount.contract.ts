import { Type } from '@sinclair/typebox';
import type { LedgerDiscount } from './ledgers.types';
import { cases, type ViewOf } from '../../contract/cases';
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

/** A discount as both transports show it: its record's fields but the ledger's id. */
export type LedgerDiscountView = ViewOf<typeof schema>;

const discountCases = cases(schema);

/** The record is its view: the contract writes each of its fields as it is (but the ledger's id). */
export const toContract = (discount: LedgerDiscount) => discountCases.toContract(discount);
