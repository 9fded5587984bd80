import type { RateAppliedAction } from './rate-applied-actions.types';
import { formatInstant } from '../../kernel/time';

/** A rate applied action as both transports show it: its instant in the facility's zone. */
export interface RateAppliedActionView {
  id: string;
  rateInfo: { appliedRate: { name: string; amount: number }; standardRate: number };
  source: string;
  completedOn: string;
  completedBy: string;
  employeeId: string;
  userId: string;
  timeCompleted: string;
  event: string;
  oldLedgerId: string;
  newLedgerId: string;
  unitId: string;
  leadId: string;
}

export function presentRateAppliedAction(action: RateAppliedAction, timeZone: string): RateAppliedActionView {
  return {
    id: action.id,
    rateInfo: { appliedRate: action.appliedRate, standardRate: action.standardRate },
    source: action.source,
    completedOn: action.completedOn,
    completedBy: action.completedBy,
    employeeId: action.employeeId,
    userId: action.userId,
    timeCompleted: formatInstant(action.timeCompleted, timeZone),
    event: action.event,
    oldLedgerId: action.oldLedgerId,
    newLedgerId: action.newLedgerId,
    unitId: action.unitId,
    leadId: action.leadId,
  };
}
