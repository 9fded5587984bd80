import type { RateAppliedAction } from './rate-applied-actions.types';
import { formatInstant } from '../../kernel/time';

/** A rate applied action as both transports show it: the record, its instant in the facility's zone. */
export type RateAppliedActionView = RateAppliedAction;

export function presentRateAppliedAction(action: RateAppliedAction, timeZone: string): RateAppliedActionView {
  return { ...action, timeCompleted: formatInstant(action.timeCompleted, timeZone) };
}
