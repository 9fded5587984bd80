import { Type, type Static } from '@sinclair/typebox';
import type { RateAppliedAction } from './rate-applied-actions.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Day, Instant, Money, Text, Uuid } from '../../contract/kit';

/** Contract 2.3, fields in the contract's order. */
export const schema = Type.Object(
  {
    rate_info: Type.Object({
      applied_rate: Type.Object({ name: Text(), amount: Money() }),
      standard_rate: Money(),
    }),
    source: Text(),
    completed_on: Day(),
    completed_by: Text({ description: 'Empty when no user completed it' }),
    employee_id: Text(),
    user_id: Text(),
    time_completed: Instant(),
    event: Text(),
    old_ledger_id: Text({ description: 'Empty when there was no earlier ledger' }),
    new_ledger_id: Uuid(),
    unit_id: Uuid(),
    lead_id: Uuid(),
  },
  { $id: 'RateAppliedAction' },
);

const rateAppliedActionCases = cases(schema);

/** A rate applied action as both transports show it: the contract's fields and its ids. */
export type RateAppliedActionView = ViewOf<typeof schema> & Pick<RateAppliedAction, 'id' | 'facilityId'>;

/**
 * The action with its rates as money in units, its instant in the facility's zone. Spread, not
 * destructured with a rest (V8 copies a rest into a slow dictionary object); the record's cents
 * ride along unread.
 */
export function present(action: RateAppliedAction, timeZone: string): RateAppliedActionView {
  return {
    ...action,
    rateInfo: {
      appliedRate: { name: action.appliedRateName, amount: centsToAmount(action.appliedRateCents) },
      standardRate: centsToAmount(action.standardRateCents),
    },
    timeCompleted: formatInstant(action.timeCompleted, timeZone),
  };
}

export function toContract(action: RateAppliedAction, timeZone: string): Static<typeof schema> {
  return rateAppliedActionCases.toContract(present(action, timeZone));
}
