import { DocumentsResolver, EventsResolver, FacilityEventsResolver } from './documents.resolver';

/**
 * Resolvers of the REST read areas and the navigation between their records (rate applied
 * actions, ledgers, tenants, units, notes, events and documents, invoiceable items, rate change
 * updates); listed once in RESOLVERS.
 */
export const READ_AREA_RESOLVERS = [FacilityEventsResolver, EventsResolver, DocumentsResolver] as const;
