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

/** Resolves the facility or company a request names, and checks the caller may act on it. */
export class FacilitiesService {
  constructor(
    private readonly facilities: FacilitiesRepository,
    private readonly clock: Clock,
  ) {}

  /** The facility, if it exists (404/9) and belongs to the caller's company (403/13). */
  async facilityFor(caller: Caller, facilityId: string, parameter = 'facility_id'): Promise<Facility> {
    if (!isUuid(facilityId)) throw DomainError.notFound(parameter, 'facility', facilityId);
    const row = await this.facilities.findFacility(normalizeId(facilityId));
    if (!row) throw DomainError.notFound(parameter, 'facility', facilityId);
    if (row.company_id !== caller.companyId) {
      throw new DomainError('forbidden', `${parameter}: facility ${row.id} is not this client's`);
    }
    return facilityRowToFacility(row);
  }

  /** The company, if it exists (404/9) and is the caller's (403/13). */
  async companyFor(caller: Caller, companyId: string, parameter = 'company_id'): Promise<Company> {
    if (!isUuid(companyId)) throw DomainError.notFound(parameter, 'company', companyId);
    const row = await this.facilities.findCompany(normalizeId(companyId));
    if (!row) throw DomainError.notFound(parameter, 'company', companyId);
    if (row.id !== caller.companyId) {
      throw new DomainError('forbidden', `${parameter}: company ${row.id} is not this client's`);
    }
    return companyRowToCompany(row);
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
