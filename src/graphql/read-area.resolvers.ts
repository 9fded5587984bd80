import { DocumentsResolver, EventsResolver, FacilityEventsResolver } from './documents.resolver';
import { FacilityInvoiceableItemsResolver, PaymentLineItemResolver } from './invoiceable-items.resolver';
import { EventLedgerResolver, FacilityLedgersResolver, LedgersResolver } from './ledgers.resolver';
import { NotesResolver } from './notes.resolver';
import {
  FacilityRateAppliedActionsResolver,
  RateAppliedActionsResolver,
} from './rate-applied-actions.resolver';
import { CompanyRateChangesResolver, RateChangeUpdatesResolver } from './rate-changes.resolver';
import { FacilityTenantsResolver, TenantsResolver, UnitsResolver } from './tenants.resolver';

/**
 * Resolvers of the REST read areas and the navigation between their records (rate applied
 * actions, ledgers, tenants, units, notes, events and documents, invoiceable items, rate change
 * updates); listed once in RESOLVERS.
 */
export const READ_AREA_RESOLVERS = [
  FacilityEventsResolver,
  EventsResolver,
  DocumentsResolver,
  FacilityRateAppliedActionsResolver,
  RateAppliedActionsResolver,
  FacilityLedgersResolver,
  LedgersResolver,
  EventLedgerResolver,
  FacilityTenantsResolver,
  TenantsResolver,
  UnitsResolver,
  NotesResolver,
  FacilityInvoiceableItemsResolver,
  PaymentLineItemResolver,
  CompanyRateChangesResolver,
  RateChangeUpdatesResolver,
] as const;
