import { cents, nullable, text, type TablesOf } from '../../kernel/columns';

/** The tables of tenants and units (composed into the store's Database). */
export const tenants = {
  id: text,
  facility_id: text,
  first_name: text,
  last_name: text,
  email: nullable(text),
  phone: nullable(text),
};

export const units = {
  id: text,
  facility_id: text,
  name: text,
  /** Monthly rate. */
  rate_cents: cents,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const tenantsTables = { tenants, units };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof tenantsTables> {}
}
