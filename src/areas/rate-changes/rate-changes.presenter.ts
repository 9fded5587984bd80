import type { RateChange } from './rate-changes.types';
import { formatInstant } from '../../kernel/time';

/** A rate change as both transports show it: the record, changedAt in its facility's zone. */
export type RateChangeUpdateView = RateChange;

export function presentRateChange(change: RateChange): RateChangeUpdateView {
  return { ...change, changedAt: formatInstant(change.changedAt, change.timeZone) };
}
