import type { KeptList } from '../../caching/kept-lists';
import type { Facility } from '../facilities/facilities.types';

/** A facility's rate applied actions. */
export const RATE_APPLIED_ACTIONS_KEPT = {
  scope: (facility: Facility) => `actions:${facility.id}`,
} satisfies KeptList<Facility>;
