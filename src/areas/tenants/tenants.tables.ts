import { cents, nullable, text } from '../../kernel/columns';

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
