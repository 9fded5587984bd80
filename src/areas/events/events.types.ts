import type { EventType } from '../documents/documents.types';
import type { PageInput } from '../../kernel/pagination';

/** Event lists are paginated as event documents are. */
/** The list a cursor of a facility's events names. */
export const EVENT_CURSOR_LIST = 'Facility.events';

export const EVENT_PAGE_LIMITS = { defaultPerPage: 100, maxPerPage: 100 } as const;

/** A page of a facility's events, of one type or (without one) all. */
export interface EventsQuery extends PageInput {
  type?: EventType | null;
  /** Only these events (those in an e-sign state, say); all of the facility's when not given. */
  ids?: readonly string[];
}
