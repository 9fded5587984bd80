import { Type, type Static } from '@sinclair/typebox';
import type { RateAppliedAction } from './rate-applied-actions.types';
import { formatInstant } from '../../kernel/time';
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

export function toContract(action: RateAppliedAction, timeZone: string): Static<typeof schema> {
  const { appliedRate, standardRate } = action.rateInfo;
  return {
    rate_info: {
      applied_rate: { name: appliedRate.name, amount: appliedRate.amount },
      standard_rate: standardRate,
    },
    source: action.source,
    completed_on: action.completedOn,
    completed_by: action.completedBy,
    employee_id: action.employeeId,
    user_id: action.userId,
    time_completed: formatInstant(action.timeCompleted, timeZone),
    event: action.event,
    old_ledger_id: action.oldLedgerId,
    new_ledger_id: action.newLedgerId,
    unit_id: action.unitId,
    lead_id: action.leadId,
  };
}
