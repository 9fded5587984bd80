import { cents, flag, integer, nullable, text, textOf, type TablesOf } from '../../kernel/columns';

export type PaymentKind = 'ach' | 'credit_card' | 'check' | 'cash' | 'card_swipe' | 'money_order';

/** The tables of payments (composed into the store's Database). */

/** A saved payment method: never a full card or account number. */
export const paymentMethods = {
  id: text,
  facility_id: text,
  tenant_id: nullable(text),
  kind: textOf<PaymentKind>(),
  first_name: text,
  last_name: text,
  /** Whether `payment_method_id` may name it again. */
  reuseable: flag,
  /** Last four digits of the card, or of the bank account for ACH (the record calls it `last4`). */
  card_last4: nullable(text),
  card_type: nullable(text),
  /** `MM/YY`. */
  expiration_date: nullable(text),
  /** JSON: the billing address as it was given. */
  billing_address: nullable(text),
  created_at: text,
  /** The processor's token for charging a saved method again; not card data. */
  gateway_token: nullable(text),
};

/** The payment half of a successful_payment_event (same id as the event). */
export const payments = {
  id: text,
  facility_id: text,
  tenant_id: nullable(text),
  payment_method_id: text,
  amount_cents: cents,
  /** Cash only: what was tendered above the charge; 0 otherwise. */
  change_due_cents: cents,
  success: flag,
  /** Stored UTC instant. */
  paid_at: text,
  gateway_reference: nullable(text),
};

export const paymentLines = {
  id: text,
  payment_id: text,
  invoiceable_item_id: text,
  quantity: integer,
  unit_total_cents: cents,
  line_total_cents: cents,
  /** Order of the line in the request. */
  position: integer,
};

export const idempotencyKeys = {
  client_id: text,
  key: text,
  request_hash: text,
  /** 0 until the transport's answer is kept (the body names the payment once it is made), then 200. */
  response_status: integer,
  response_body: text,
  created_at: text,
  expires_at: text,
};

/** A card or ACH payment between its reserve and its record (migration 20261128120000). */
export const paymentAttempts = {
  /** The payment's id: the processor's idempotency key and what a void names. */
  id: text,
  client_id: text,
  /** The stored Idempotency-Key (`rest:...`, `graphql:...`) it claimed; null without one. */
  idempotency_key: nullable(text),
  facility_id: text,
  processor: text,
  /** JSON `[{ "itemId", "quantity" }]`: the stock it holds (also in payment_holds). */
  holds: text,
  /** JSON: the payment event, receipt and webhook events to write once the charge is approved. */
  payment: text,
  created_at: text,
  /** Until then the request that made it is charging; after it the attempt is in doubt. */
  lease_until: text,
};

/** Stock held by a payment attempt: not sold yet, but not for another payment either. */
export const paymentHolds = { attempt_id: text, item_id: text, quantity: integer };

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const paymentsTables = {
  payment_methods: paymentMethods,
  payments,
  payment_lines: paymentLines,
  idempotency_keys: idempotencyKeys,
  payment_attempts: paymentAttempts,
  payment_holds: paymentHolds,
};

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof paymentsTables> {}
}
