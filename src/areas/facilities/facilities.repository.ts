import type { FacilitiesRepository } from './facilities.ports';
import { companies, facilities } from './facilities.tables';
import type { Company, Facility } from './facilities.types';
import type { Db } from '../../store/database';
import { rowCodec } from '../../store/rows';

const facilityCodec = rowCodec(facilities);
const companyCodec = rowCodec(companies);

export class SqlFacilitiesRepository implements FacilitiesRepository {
  constructor(private readonly db: Db) {}

  async findFacility(id: string): Promise<Facility | undefined> {
    const row = await this.db.selectFrom('facilities').selectAll().where('id', '=', id).executeTakeFirst();
    return row && facilityCodec.read(row);
  }

  async findFacilities(ids: readonly string[]): Promise<Facility[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('facilities').selectAll().where('id', 'in', ids).execute();
    return rows.map(facilityCodec.read);
  }

  async findCompany(id: string): Promise<Company | undefined> {
    const row = await this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    return row && companyCodec.read(row);
  }

  async findCompanies(ids: readonly string[]): Promise<Company[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('companies').selectAll().where('id', 'in', ids).execute();
    return rows.map(companyCodec.read);
  }

  async findFacilitiesOfCompany(companyId: string): Promise<Facility[]> {
    const rows = await this.db
      .selectFrom('facilities')
      .selectAll()
      .where('company_id', '=', companyId)
      .execute();
    return rows.map(facilityCodec.read);
  }
}
