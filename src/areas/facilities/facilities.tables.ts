import { flag, text } from '../../kernel/columns';

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
