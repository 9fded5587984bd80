import { cents, text, type TablesOf } from '../../kernel/columns';

/** The table of rate applied actions (composed into the store's Database). */
export const rateAppliedActions = {
  id: text,
  facility_id: text,
  applied_rate_name: text,
  applied_rate_cents: cents,
  standard_rate_cents: cents,
  source: text,
  completed_on: text,
  /** Empty string when no user completed it. */
  completed_by: text,
  employee_id: text,
  user_id: text,
  /** Stored UTC instant; transports write it in the facility's zone. */
  time_completed: text,
  event: text,
  /** Empty string when there was no earlier ledger. */
  old_ledger_id: text,
  new_ledger_id: text,
  unit_id: text,
  lead_id: text,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const rateAppliedActionsTables = { rate_applied_actions: rateAppliedActions };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof rateAppliedActionsTables> {}
}
