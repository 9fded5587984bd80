import type { Slice, SliceRequest } from '../../kernel/connections';
import type { RateChange, RateChangeWindow } from './rate-changes.types';

export type { RateChangeWindow };

export interface RateChangePage {
  totalEntries: number;
  rateChanges: RateChange[];
}

/** A page of rate changes as the contract lists them. */
export interface RateChangeListingPage {
  totalEntries: number;
  /** The page's rate changes, each its listing (RateChangeUpdate.listing, src/contract), joined by commas, as UTF-8. */
  listings: Uint8Array;
}

/** Where rate changes are read from. */
export interface RateChangesRepository {
  /**
   * One page of the window in the contract's order (facility name, tenant name, changed_at, id;
   * byte-wise) and the number of matching rows, from one snapshot.
   */
  pageInWindow(window: RateChangeWindow, offset: number, limit: number): Promise<RateChangePage>;
  /** The same page as pageInWindow, each rate change as its listing. */
  listingInWindow(window: RateChangeWindow, offset: number, limit: number): Promise<RateChangeListingPage>;
  /**
   * A slice of the window from a position in the contract's order (facility_sort, tenant_sort,
   * changed_at, id), each rate change with its position, and the number of matching rows.
   */
  sliceInWindow(window: RateChangeWindow, slice: SliceRequest): Promise<Slice<RateChange>>;
  /** Rate changes by id, in key order, null for a missing one. */
  findByIds(ids: readonly string[]): Promise<(RateChange | null)[]>;
}
