import { cents, decimal, flag, integer, nullable, text, textOf, type TablesOf } from '../../kernel/columns';

export type InvoiceableItemKind = 'fee' | 'insurance' | 'service' | 'retail';
export type FeeCategory =
  'security_deposit' | 'online_payment' | 'reservation' | 'move_in' | 'transfer' | 'other';

/**
 * The tables of invoiceable items and their amount tiers (composed into the store's Database). An
 * item's columns are declared in the order its positional reads take them (ITEM_COLUMNS).
 */
export const invoiceableItems = {
  id: text,
  facility_id: text,
  kind: textOf<InvoiceableItemKind>(),
  product_code: text,
  description: text,
  short_description: nullable(text),
  required_at_move_in: flag,
  required_at_transfer: flag,
  show_in_sales_center: flag,
  tax_total_cents: cents,
  total_cents: cents,
  /** Fees only. */
  fee_category: nullable(textOf<FeeCategory>()),
  /** Insurance only. */
  coverage_amount_cents: nullable(cents),
  coverage_percentage: nullable(decimal),
  provider_name: nullable(text),
  provider_key: nullable(text),
  /** Retail only: units in stock. */
  quantity: nullable(integer),
  is_rental_center_lock: flag,
  rental_center_eligible: flag,
  /** The contract's JSON text of the item with its tiers (InvoiceableItem.listing); a retail item's up to its quantity. */
  listing: text,
  /** A retail item's listing after its quantity; null for other items. */
  listing_rest: nullable(text),
};

/** The columns of an item's stored listing, which its record leaves out. */
export const ITEM_LISTING_COLUMNS = ['listing', 'listing_rest'] as const;

/** An item's amount tiers, in the order their positional reads take them. */
export const invoiceableAmounts = {
  id: text,
  invoiceable_item_id: text,
  position: integer,
  kind: textOf<'amount' | 'percent'>(),
  /** Hundredths: cents for an amount tier, hundredths of a percent for a percent tier. */
  amount_cents: cents,
  limit_value: nullable(decimal),
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const invoiceableItemsTables = {
  invoiceable_items: invoiceableItems,
  invoiceable_amounts: invoiceableAmounts,
};

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof invoiceableItemsTables> {}
}
