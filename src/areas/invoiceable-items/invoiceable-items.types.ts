export type InvoiceableItemKind = 'fee' | 'insurance' | 'service' | 'retail';
export type FeeCategory =
  'security_deposit' | 'online_payment' | 'reservation' | 'move_in' | 'transfer' | 'other';

/** One amount tier of an item. */
export interface InvoiceableAmount {
  id: string;
  itemId: string;
  position: number;
  kind: 'amount' | 'percent';
  /** Hundredths: cents for an amount tier, hundredths of a percent for a percent tier. */
  amountHundredths: number;
  limit: number | null;
}

/** A fee, insurance, service or retail item a facility can invoice (contract 2.7), without its tiers. */
export interface InvoiceableItem {
  id: string;
  facilityId: string;
  kind: InvoiceableItemKind;
  productCode: string;
  description: string;
  shortDescription: string | null;
  requiredAtMoveIn: boolean;
  requiredAtTransfer: boolean;
  showInSalesCenter: boolean;
  taxTotalCents: number;
  totalCents: number;
  /** Fees only. */
  feeCategory: FeeCategory | null;
  /** Insurance only. */
  coverageAmountCents: number | null;
  coveragePercentage: number | null;
  providerName: string | null;
  providerKey: string | null;
  /** Retail only: units in stock. */
  quantity: number | null;
  isRentalCenterLock: boolean;
  rentalCenterEligible: boolean;
}

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
