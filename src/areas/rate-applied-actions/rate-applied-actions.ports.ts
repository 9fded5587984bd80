import type { RateAppliedAction } from './rate-applied-actions.types';

/** Where rate applied actions are read from. */
export interface RateAppliedActionsRepository {
  /** The facility's actions completed on a date in [startDate, endDate], by time_completed then id. */
  listCompletedBetween(facilityId: string, startDate: string, endDate: string): Promise<RateAppliedAction[]>;
  /** Actions by id, in key order, null for a missing id. */
  findByIds(ids: readonly string[]): Promise<(RateAppliedAction | null)[]>;
}
