import { flag, text, type TablesOf } from '../../kernel/columns';

/** The tables of facilities and their companies (composed into the store's Database). */
export const companies = { id: text, name: text };

export const facilities = {
  id: text,
  company_id: text,
  name: text,
  /** IANA zone; "today" at the facility is this zone's date. */
  time_zone: text,
  tenant_payments_disabled: flag,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const facilitiesTables = { companies, facilities };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof facilitiesTables> {}
}
