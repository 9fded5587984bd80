import { cents, integer, nullable, text, type TablesOf } from '../../kernel/columns';

/** The tables of rate changes and their counts (composed into the store's Database). */
export const rateChanges = {
  id: text,
  company_id: text,
  facility_id: text,
  tenant_id: text,
  unit_id: text,
  /** Stored UTC instant; transports write it in the facility's zone. */
  changed_at: text,
  old_rate_cents: cents,
  new_rate_cents: cents,
  effective_on_date: text,
  created_by: nullable(integer),
  /** Lower-cased facility and tenant names, kept in step on import, for the contract's ordering. */
  facility_sort: text,
  tenant_sort: text,
  /** The tenant's first and last name, separated by one space, kept in step by the import. */
  tenant_name: text,
  /** The unit's name, kept in step by the import. */
  unit_name: text,
  /** The contract's JSON text of the rate change (RateChangeUpdate.listing), kept in step by the import. */
  listing: text,
};

/** Rate changes per company and UTC day of changed_at, kept exact by triggers (may hold 0). */
export const rateChangeDailyCounts = { company_id: text, day: text, entries: integer };

/** Rate changes per company and UTC month (`YYYY-MM`) of changed_at, kept by the same triggers. */
export const rateChangeMonthlyCounts = { company_id: text, month: text, entries: integer };

/** The same per creator; rows without created_by are counted only in the daily table. */
export const rateChangeCreatorDailyCounts = {
  company_id: text,
  created_by: integer,
  day: text,
  entries: integer,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const rateChangesTables = {
  rate_changes: rateChanges,
  rate_change_daily_counts: rateChangeDailyCounts,
  rate_change_monthly_counts: rateChangeMonthlyCounts,
  rate_change_creator_daily_counts: rateChangeCreatorDailyCounts,
};

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof rateChangesTables> {}
}
