import type {
  FeeCategory,
  invoiceableAmounts,
  InvoiceableItemKind,
  invoiceableItems,
  ITEM_LISTING_COLUMNS,
} from './invoiceable-items.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type { InvoiceableItemKind, FeeCategory };

/** One amount tier of an item (its amount in hundredths: see invoiceableAmounts). */
export type InvoiceableAmount = RecordOfTable<typeof invoiceableAmounts>;

/** A fee, insurance, service or retail item a facility can invoice (contract 2.7), without its tiers. */
export type InvoiceableItem = RecordOfTable<typeof invoiceableItems, (typeof ITEM_LISTING_COLUMNS)[number]>;

/** An item with its amount tiers in position order. */
export interface PricedItem {
  item: InvoiceableItem;
  tiers: InvoiceableAmount[];
}

/** The lists of contract 4.10. */
export type InvoiceableItemList = 'all' | 'insurance' | 'services' | 'retail' | 'rental_center';

/** Fee items grouped by fee category (GET /invoiceable_items/fees). */
export interface FeeGroups {
  securityDeposit: PricedItem | null;
  onlinePayment: PricedItem | null;
  reservation: PricedItem | null;
  moveInFees: PricedItem[];
  transferFees: PricedItem[];
  other: PricedItem[];
}
