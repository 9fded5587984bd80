import type { KeptList } from '../../caching/kept-lists';
import type { Facility } from '../facilities/facilities.types';

/** A facility's ledgers with their insurance, services and discounts. */
export const LEDGERS_KEPT = {
  scope: (facility: Facility) => `ledgers:${facility.id}`,
} satisfies KeptList<Facility>;
