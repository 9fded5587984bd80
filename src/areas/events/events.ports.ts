import type { DocumentEvent } from '../documents/documents.types';
import type { Facility } from '../facilities/facilities.types';
import type { ConnectionArgs, Slice } from '../../kernel/connections';
import type { Page } from '../../kernel/pagination';
import type { EventsQuery } from './events.types';

/** What the other areas ask of the events (`EventsService` implements it). */
export interface EventListing {
  /** A page of the facility's events, of one type or all, optionally only some. */
  list(facility: Facility, query: EventsQuery): Promise<Page<DocumentEvent>>;
  /** The same list walked by cursor (created_at, then id), bound to the list and the facility. */
  connection(
    facility: Facility,
    query: Omit<EventsQuery, 'page' | 'perPage'>,
    args: ConnectionArgs,
  ): Promise<Slice<DocumentEvent>>;
}
