import type { InvoiceableAmount, InvoiceableItem, InvoiceableItemKind } from './invoiceable-items.types';

/** Which of a facility's items a list holds. */
export interface ItemFilter {
  kind?: InvoiceableItemKind;
  rentalCenterEligible?: boolean;
}

/** Where invoiceable items and their amount tiers are read from; lists in key order. */
export interface InvoiceableItemsRepository {
  count(facilityId: string, filter: ItemFilter): Promise<number>;
  /** One page of the facility's items matching the filter: kind, description (case-insensitive), id. */
  page(facilityId: string, filter: ItemFilter, limit: number, offset: number): Promise<InvoiceableItem[]>;
  /** Every item of the facility matching the filter, in list order. */
  all(facilityId: string, filter: ItemFilter): Promise<InvoiceableItem[]>;
  /** Items by id, null for a missing id. */
  itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]>;
  /** Amount tiers of each item ([] for none), in position order. */
  tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]>;
}
