import type { Clock } from '../../clock';
import type {
  CompanyRow,
  FacilitiesRepository,
  FacilityRow,
} from '../../store/repositories/facilities.repository';
import type { Caller } from '../caller';
import { DomainError } from '../errors';
import { isUuid, normalizeId } from '../shared/ids';
import { localDate } from '../shared/time';
import { TtlCache } from '../shared/ttl-cache';
import type { Company, Facility } from './facilities.types';
import { compareCodePoints } from '../shared/compare';

export function facilityRowToFacility(row: FacilityRow): Facility {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    timeZone: row.time_zone,
    tenantPaymentsDisabled: row.tenant_payments_disabled === 1,
  };
}

function companyRowToCompany(row: CompanyRow): Company {
  return { id: row.id, name: row.name };
}

/**
 * How long a facility or company, once read, is reused without asking the database. Both change
 * only by import, so an imported change (a name, a time zone, tenant payments turned off) reaches
 * every instance within this time. Unknown ids are never remembered. Reading the facility was a
 * sixth of the work of `GET /v1/:facility_id/flippers`.
 */
export const FACILITY_CACHE_TTL_MS = 5_000;

/** Resolves the facility or company a request names, and checks the caller may act on it. */
export class FacilitiesService {
  private readonly facilityCache = new TtlCache<string, Facility>(FACILITY_CACHE_TTL_MS, 10_000);
  private readonly companyCache = new TtlCache<string, Company>(FACILITY_CACHE_TTL_MS, 10_000);

  constructor(
    private readonly facilities: FacilitiesRepository,
    private readonly clock: Clock,
  ) {}

  /** The facility, if it exists (404/9) and belongs to the caller's company (403/13). */
  async facilityFor(
    caller: Caller,
    facilityId: string,
    parameter = 'facility_id',
    /** Read from the database even when kept (for answers that are themselves kept). */
    options: { fresh?: boolean } = {},
  ): Promise<Facility> {
    if (!isUuid(facilityId)) throw DomainError.notFound(parameter, 'facility', facilityId);
    const id = normalizeId(facilityId);
    let facility = options.fresh ? undefined : this.facilityCache.get(id);
    if (!facility) {
      const row = await this.facilities.findFacility(id);
      if (!row) throw DomainError.notFound(parameter, 'facility', facilityId);
      facility = Object.freeze(facilityRowToFacility(row));
      this.facilityCache.set(id, facility);
    }
    if (facility.companyId !== caller.companyId) {
      throw new DomainError('forbidden', `${parameter}: facility ${facility.id} is not this client's`);
    }
    return facility;
  }

  /** The company, if it exists (404/9) and is the caller's (403/13). */
  async companyFor(
    caller: Caller,
    companyId: string,
    parameter = 'company_id',
    options: { fresh?: boolean } = {},
  ): Promise<Company> {
    if (!isUuid(companyId)) throw DomainError.notFound(parameter, 'company', companyId);
    const id = normalizeId(companyId);
    let company = options.fresh ? undefined : this.companyCache.get(id);
    if (!company) {
      const row = await this.facilities.findCompany(id);
      if (!row) throw DomainError.notFound(parameter, 'company', companyId);
      company = Object.freeze(companyRowToCompany(row));
      this.companyCache.set(id, company);
    }
    if (company.id !== caller.companyId) {
      throw new DomainError('forbidden', `${parameter}: company ${company.id} is not this client's`);
    }
    return company;
  }

  /** Facilities by id, in key order, null for a missing one (DataLoader batch shape). */
  async facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]> {
    const rows = await this.facilities.findFacilities(ids);
    const byId = new Map(rows.map((row) => [row.id, facilityRowToFacility(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Companies by id, in key order, null for a missing one (DataLoader batch shape). */
  async companiesByIds(ids: readonly string[]): Promise<(Company | null)[]> {
    const rows = await this.facilities.findCompanies(ids);
    const byId = new Map(rows.map((row) => [row.id, companyRowToCompany(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** The company's facilities, by name (case-insensitive, code point order), then id. */
  async facilitiesOfCompany(company: Company): Promise<Facility[]> {
    const rows = await this.facilities.findFacilitiesOfCompany(company.id);
    const keyed = rows.map((row) => ({ key: row.name.toLowerCase(), row }));
    keyed.sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.row.id, b.row.id));
    return keyed.map(({ row }) => facilityRowToFacility(row));
  }

  /** Today's date where the facility is. */
  today(facility: Facility): string {
    return localDate(this.clock.now(), facility.timeZone);
  }
}
