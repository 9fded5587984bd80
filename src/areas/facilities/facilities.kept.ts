import type { KeptList } from '../../caching/kept-lists';

/** A facility or a company itself (names, zones, owners). */
export const FACILITIES_KEPT = { scope: () => 'facilities' } satisfies KeptList<unknown>;
