import type { KeptList } from '../../caching/kept-lists';
import type { Company } from '../facilities/facilities.types';

/** A company's rate changes with the names they show. */
export const RATE_CHANGE_UPDATES_KEPT = { scope: () => 'rate_changes' } satisfies KeptList<Company>;
