import { LRUCache } from 'lru-cache';
import type { Clock } from '../../kernel/clock';
import type { Caller } from '../../kernel/caller';
import { DomainError, type Path } from '../../kernel/errors';
import { compareCodePoints } from '../../kernel/compare';
import { isUuid, normalizeId } from '../../kernel/ids';
import { localDate } from '../../kernel/time';
import type { FacilitiesRepository, FacilityAccess } from './facilities.ports';
import type { Company, Facility } from './facilities.types';

/**
 * How long a facility or company, once read, is reused without asking the database. Both change
 * only by import, so an imported change (a name, a time zone, tenant payments turned off) reaches
 * every instance within this time. Unknown ids are never remembered. Reading the facility was a
 * sixth of the work of `GET /v1/:facility_id/flippers`.
 */
export const FACILITY_CACHE_TTL_MS = 5_000;

/** Facilities or companies as read: each for FACILITY_CACHE_TTL_MS, the 10,000 last used. */
function keptFor<Value extends object>(): LRUCache<string, Value> {
  // Each look-up reads the clock (no 1 ms resolution), so the time is exact to the millisecond.
  return new LRUCache<string, Value>({ max: 10_000, ttl: FACILITY_CACHE_TTL_MS, ttlResolution: 0 });
}

/** Resolves the facility or company a request names, and checks the caller may act on it. */
export class FacilitiesService implements FacilityAccess {
  private readonly facilityCache = keptFor<Facility>();
  private readonly companyCache = keptFor<Company>();

  constructor(
    private readonly facilities: FacilitiesRepository,
    private readonly clock: Clock,
  ) {}

  /** The facility, if it exists (404/9) and belongs to the caller's company (403/13). */
  async facilityFor(
    caller: Caller,
    facilityId: string,
    parameter: Path = ['facilityId'],
    /** Read from the database even when kept (for answers that are themselves kept). */
    options: { fresh?: boolean } = {},
  ): Promise<Facility> {
    if (!isUuid(facilityId)) throw DomainError.notFound(parameter, 'facility', facilityId);
    const id = normalizeId(facilityId);
    let facility = options.fresh ? undefined : this.facilityCache.get(id);
    if (!facility) {
      const found = await this.facilities.findFacility(id);
      if (!found) throw DomainError.notFound(parameter, 'facility', facilityId);
      facility = Object.freeze(found);
      this.facilityCache.set(id, facility);
    }
    if (facility.companyId !== caller.companyId) {
      throw new DomainError('forbidden', [parameter, `: facility ${facility.id} is not this client's`]);
    }
    return facility;
  }

  /**
   * The facility when it is remembered and the caller's, else null (facilityFor then answers, with
   * the error if there is one). Lets a kept answer be sent without a promise.
   */
  knownFacility(caller: Caller, facilityId: string): Facility | null {
    const facility = this.facilityCache.get(facilityId);
    return facility !== undefined && facility.companyId === caller.companyId ? facility : null;
  }

  /** As knownFacility, the company when it is remembered and the caller's, else null. */
  knownCompany(caller: Caller, companyId: string): Company | null {
    const company = this.companyCache.get(companyId);
    return company !== undefined && company.id === caller.companyId ? company : null;
  }

  /** The company, if it exists (404/9) and is the caller's (403/13). */
  async companyFor(
    caller: Caller,
    companyId: string,
    parameter: Path = ['companyId'],
    options: { fresh?: boolean } = {},
  ): Promise<Company> {
    if (!isUuid(companyId)) throw DomainError.notFound(parameter, 'company', companyId);
    const id = normalizeId(companyId);
    let company = options.fresh ? undefined : this.companyCache.get(id);
    if (!company) {
      const found = await this.facilities.findCompany(id);
      if (!found) throw DomainError.notFound(parameter, 'company', companyId);
      company = Object.freeze(found);
      this.companyCache.set(id, company);
    }
    if (company.id !== caller.companyId) {
      throw new DomainError('forbidden', [parameter, `: company ${company.id} is not this client's`]);
    }
    return company;
  }

  /** Facilities by id, in key order, null for a missing one (DataLoader batch shape). */
  async facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]> {
    const found = await this.facilities.findFacilities(ids);
    const byId = new Map(found.map((facility) => [facility.id, facility]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Companies by id, in key order, null for a missing one (DataLoader batch shape). */
  async companiesByIds(ids: readonly string[]): Promise<(Company | null)[]> {
    const found = await this.facilities.findCompanies(ids);
    const byId = new Map(found.map((company) => [company.id, company]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** The company's facilities, by name (case-insensitive, code point order), then id. */
  async facilitiesOfCompany(company: Company): Promise<Facility[]> {
    const facilities = await this.facilities.findFacilitiesOfCompany(company.id);
    const keyed = facilities.map((facility) => ({ key: facility.name.toLowerCase(), facility }));
    keyed.sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.facility.id, b.facility.id));
    return keyed.map(({ facility }) => facility);
  }

  /** Today's date where the facility is. */
  today(facility: Facility): string {
    return localDate(this.clock.now(), facility.timeZone);
  }
}
