import type { FacilitiesRepository } from './facilities.ports';
import type { Company, Facility } from './facilities.types';
import type { Db } from '../../store/database';
import type { CompaniesTable, FacilitiesTable } from '../../store/schema';

export type FacilityRow = FacilitiesTable;
export type CompanyRow = CompaniesTable;

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

export class SqlFacilitiesRepository implements FacilitiesRepository {
  constructor(private readonly db: Db) {}

  async findFacility(id: string): Promise<Facility | undefined> {
    const row = await this.db.selectFrom('facilities').selectAll().where('id', '=', id).executeTakeFirst();
    return row && facilityRowToFacility(row);
  }

  async findFacilities(ids: readonly string[]): Promise<Facility[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('facilities').selectAll().where('id', 'in', ids).execute();
    return rows.map(facilityRowToFacility);
  }

  async findCompany(id: string): Promise<Company | undefined> {
    const row = await this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    return row && companyRowToCompany(row);
  }

  async findCompanies(ids: readonly string[]): Promise<Company[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('companies').selectAll().where('id', 'in', ids).execute();
    return rows.map(companyRowToCompany);
  }

  async findFacilitiesOfCompany(companyId: string): Promise<Facility[]> {
    const rows = await this.db
      .selectFrom('facilities')
      .selectAll()
      .where('company_id', '=', companyId)
      .execute();
    return rows.map(facilityRowToFacility);
  }
}
