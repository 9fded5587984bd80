import { cents, flag, nullable, text, type TablesOf } from '../../kernel/columns';

/** The tables of move-in review sessions and their documents (composed into the store's Database). */
export const moveInSessions = {
  id: text,
  facility_id: text,
  unit_id: text,
  tenant_id: nullable(text),
  move_in_date: text,
  /** The unit's monthly rate. */
  rent_cents: cents,
  /** JSON: the fees required at move-in, each as `storedFee`. */
  fees: text,
  /** Rent plus every fee: what is due at move-in. */
  total_cents: cents,
  /** Stored UTC instants. */
  created_at: text,
  expires_at: text,
};

export const sessionDocuments = {
  id: text,
  session_id: text,
  description: text,
  /** The filled-in text its PDF prints. */
  body: text,
  esignable: flag,
  /** Stored UTC instant. */
  created_at: text,
};

/** A fee as a session's `fees` keeps it: one of the facility's fee items required at move-in. */
export const storedFee = {
  id: text,
  description: text,
  /** The item's total, tax included. */
  amount_cents: cents,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const moveInsTables = { move_in_sessions: moveInSessions, session_documents: sessionDocuments };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof moveInsTables> {}
}
