import type { Slice, SliceRequest } from '../../kernel/connections';
import type {
  InvoiceableAmount,
  InvoiceableItem,
  InvoiceableItemKind,
  PricedItem,
} from './invoiceable-items.types';

/** Which of a facility's items a list holds. */
export interface ItemFilter {
  kind?: InvoiceableItemKind;
  rentalCenterEligible?: boolean;
}

/** Where invoiceable items and their amount tiers are read from; lists in key order. */
export interface InvoiceableItemsRepository {
  /**
   * One page of the facility's items matching the filter, with their tiers, in list order (kind,
   * description case-insensitively, id), and how many items match.
   */
  pricedPage(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<{ total: number; entries: PricedItem[] }>;
  /**
   * The same page as pricedPage, each item as the contract lists it (InvoiceableItem.listing, src/contract), joined by commas
   * as UTF-8, and how many items match.
   */
  listingPage(
    facilityId: string,
    filter: ItemFilter,
    limit: number,
    offset: number,
  ): Promise<{ total: number; listings: Uint8Array }>;
  /**
   * A slice of the facility's items matching the filter from a position (kind, description
   * case-insensitively, id), with their tiers and positions, and how many items match.
   */
  pricedSlice(facilityId: string, filter: ItemFilter, slice: SliceRequest): Promise<Slice<PricedItem>>;
  /** Every item of the facility matching the filter, in list order. */
  all(facilityId: string, filter: ItemFilter): Promise<InvoiceableItem[]>;
  /** Items by id, null for a missing id. */
  itemsByIds(ids: readonly string[]): Promise<(InvoiceableItem | null)[]>;
  /** Amount tiers of each item ([] for none), in position order. */
  tiersByItemIds(itemIds: readonly string[]): Promise<InvoiceableAmount[][]>;
}
