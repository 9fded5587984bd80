import type { RateChangeWindow } from '../../store/repositories/rate-changes.repository';
import type { PageMeta, PageRequest } from '../shared/pagination';

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

/** Query parameters as the transport received them; the service reads and checks each one. */
export interface RateChangeUpdatesQuery {
  updated_after?: unknown;
  updated_before?: unknown;
  created_by?: unknown;
  page?: unknown;
  per_page?: unknown;
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
