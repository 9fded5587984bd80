import type { Db } from '../database';
import type { CompaniesTable, FacilitiesTable } from '../schema';

export type FacilityRow = FacilitiesTable;
export type CompanyRow = CompaniesTable;

export class FacilitiesRepository {
  constructor(private readonly db: Db) {}

  findFacility(id: string): Promise<FacilityRow | undefined> {
    return this.db.selectFrom('facilities').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findFacilities(ids: readonly string[]): Promise<FacilityRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('facilities').selectAll().where('id', 'in', ids).execute();
  }

  findCompany(id: string): Promise<CompanyRow | undefined> {
    return this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findCompanies(ids: readonly string[]): Promise<CompanyRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('companies').selectAll().where('id', 'in', ids).execute();
  }

  findFacilitiesOfCompany(companyId: string): Promise<FacilityRow[]> {
    return this.db.selectFrom('facilities').selectAll().where('company_id', '=', companyId).execute();
  }
}
