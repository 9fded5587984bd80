/** A rate applied action: the rates offered at a move-in or transfer and the one finally applied. */
export interface RateAppliedAction {
  id: string;
  facilityId: string;
  rateInfo: RateInfo;
  source: string;
  completedOn: string;
  /** Empty string when no user completed it. */
  completedBy: string;
  employeeId: string;
  userId: string;
  /** Stored UTC instant; transports write it in the facility's zone. */
  timeCompleted: string;
  event: string;
  /** Empty string when there was no earlier ledger. */
  oldLedgerId: string;
  newLedgerId: string;
  unitId: string;
  leadId: string;
}

/** The rate applied, and the standard rate (money in currency units). */
export interface RateInfo {
  appliedRate: AppliedRate;
  standardRate: number;
}

export interface AppliedRate {
  name: string;
  amount: number;
}

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
