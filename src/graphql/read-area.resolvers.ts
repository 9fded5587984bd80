import {
  DocumentsResolver,
  EventsResolver,
  FacilityEventsResolver,
} from '../areas/documents/documents.resolver';
import {
  FacilityInvoiceableItemsResolver,
  PaymentLineItemResolver,
} from '../areas/invoiceable-items/invoiceable-items.resolver';
import {
  EventLedgerResolver,
  FacilityLedgersResolver,
  LedgersResolver,
} from '../areas/ledgers/ledgers.resolver';
import { NotesResolver } from '../areas/notes/notes.resolver';
import {
  FacilityRateAppliedActionsResolver,
  RateAppliedActionsResolver,
} from '../areas/rate-applied-actions/rate-applied-actions.resolver';
import {
  CompanyRateChangesResolver,
  RateChangeUpdatesResolver,
} from '../areas/rate-changes/rate-changes.resolver';
import { FacilityTenantsResolver, TenantsResolver, UnitsResolver } from '../areas/tenants/tenants.resolver';

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
