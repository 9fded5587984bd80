import type { PageInput, PageMeta, PageRequest } from '../../kernel/pagination';
import type { RateChangeWindow } from './rate-changes.ports';

/** A unit's rental rate change (contract 2.9). */
export interface RateChange {
  id: string;
  facilityId: string;
  facilityName: string;
  /** The facility's IANA zone; transports write changedAt in it. */
  timeZone: string;
  tenantId: string;
  /** First and last name, separated by one space. */
  tenantName: string;
  unitId: string;
  unitName: string;
  /** Stored UTC instant. */
  changedAt: string;
  oldRate: number;
  newRate: number;
  effectiveOnDate: string;
  createdBy: number | null;
}

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
