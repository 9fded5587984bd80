import type { rateChanges } from './rate-changes.tables';
import type { RecordOfTable } from '../../kernel/columns';
import type { PageInput, PageMeta, PageRequest } from '../../kernel/pagination';

/** A company's rate changes with after <= changed_at < before (stored UTC instants), maybe of one creator. */
export interface RateChangeWindow {
  companyId: string;
  after: string;
  before: string;
  createdBy: number | null;
}

/**
 * A unit's rental rate change (contract 2.9): its row without what only the store needs (company,
 * sort keys, listing), with its facility's name and zone, in which transports write changedAt.
 */
export type RateChange = RecordOfTable<
  typeof rateChanges,
  'company_id' | 'facility_sort' | 'tenant_sort' | 'listing'
> & {
  facilityName: string;
  timeZone: string;
};

/**
 * The window and page asked for, as REST's query strings or GraphQL's typed arguments give them;
 * the service reads and checks each one.
 */
export interface RateChangeUpdatesQuery extends PageInput {
  updatedAfter?: string | null;
  updatedBefore?: string | null;
  createdBy?: string | number | null;
}

export interface RateChangeUpdatesResult {
  rateChanges: RateChange[];
  pagination: PageMeta;
  /** The filters applied, as the contract echoes them. */
  filters: { created_by?: number };
  /** Page parameters that were not given and took their default. */
  defaults: { page?: number; per_page?: number };
}

/** A checked query: the window and page it asks for. */
export interface RateChangeUpdatesRequest {
  window: RateChangeWindow;
  page: PageRequest;
  /** Names the page: equal for requests that read the same rows. */
  key: string;
  filters: RateChangeUpdatesResult['filters'];
  defaults: RateChangeUpdatesResult['defaults'];
}
