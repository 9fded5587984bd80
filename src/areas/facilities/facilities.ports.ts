import type { Caller } from '../../kernel/caller';
import type { Path } from '../../kernel/errors';
import type { Company, Facility } from './facilities.types';

/** Where facilities and companies are read from. */
export interface FacilitiesRepository {
  findFacility(id: string): Promise<Facility | undefined>;
  findFacilities(ids: readonly string[]): Promise<Facility[]>;
  findCompany(id: string): Promise<Company | undefined>;
  findCompanies(ids: readonly string[]): Promise<Company[]>;
  findFacilitiesOfCompany(companyId: string): Promise<Facility[]>;
}

/**
 * What the other areas ask of the facilities (`FacilitiesService` implements it): the facility or
 * company a request names, checked against the caller, and look-ups by id.
 */
export interface FacilityAccess {
  /** The facility, if it exists (404/9) and belongs to the caller's company (403/13). */
  facilityFor(
    caller: Caller,
    facilityId: string,
    parameter?: Path,
    options?: { fresh?: boolean },
  ): Promise<Facility>;
  /** The facility when it is remembered and the caller's, else null. */
  knownFacility(caller: Caller, facilityId: string): Facility | null;
  /** The company, if it exists (404/9) and is the caller's (403/13). */
  companyFor(
    caller: Caller,
    companyId: string,
    parameter?: Path,
    options?: { fresh?: boolean },
  ): Promise<Company>;
  /** Facilities by id, in key order, null for a missing one (DataLoader batch shape). */
  facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]>;
  /** Companies by id, in key order, null for a missing one (DataLoader batch shape). */
  companiesByIds(ids: readonly string[]): Promise<(Company | null)[]>;
  /** The company's facilities, by name (case-insensitive, code point order), then id. */
  facilitiesOfCompany(company: Company): Promise<Facility[]>;
  /** Today's date where the facility is. */
  today(facility: Facility): string;
}
