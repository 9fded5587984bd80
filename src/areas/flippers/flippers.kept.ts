import type { KeptList } from '../../caching/kept-lists';
import type { Facility } from '../facilities/facilities.types';

/** A facility's enabled flags. */
export const FLIPPERS_KEPT = { scope: () => 'flippers' } satisfies KeptList<Facility>;
