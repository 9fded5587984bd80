import type { Company, Facility } from './facilities.types';

/** Where facilities and companies are read from. */
export interface FacilitiesRepository {
  findFacility(id: string): Promise<Facility | undefined>;
  findFacilities(ids: readonly string[]): Promise<Facility[]>;
  findCompany(id: string): Promise<Company | undefined>;
  findCompanies(ids: readonly string[]): Promise<Company[]>;
  findFacilitiesOfCompany(companyId: string): Promise<Facility[]>;
}
