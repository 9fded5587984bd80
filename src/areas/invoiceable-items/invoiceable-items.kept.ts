import type { KeptList } from '../../caching/kept-lists';
import type { Facility } from '../facilities/facilities.types';

/** A facility's invoiceable items with their tiers and stock. */
export const INVOICEABLE_ITEMS_KEPT = {
  scope: (facility: Facility) => `items:${facility.id}`,
} satisfies KeptList<Facility>;
