import type { rateAppliedActions } from './rate-applied-actions.tables';
import type { RecordOfTable } from '../../kernel/columns';

/** A rate applied action: the rates offered at a move-in or transfer and the one finally applied. */
export type RateAppliedAction = RecordOfTable<typeof rateAppliedActions>;

/** The range asked for; a bound not given is today at the facility. */
export interface RateAppliedActionsQuery {
  startDate?: string | null;
  endDate?: string | null;
}

export interface RateAppliedActionsResult {
  startDate: string;
  endDate: string;
  /** Which of the dates were not given and took their default. */
  defaulted: { startDate: boolean; endDate: boolean };
  actions: RateAppliedAction[];
}
