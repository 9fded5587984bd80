import type { TenantsRepository } from './tenants.ports';
import { tenants, units } from './tenants.tables';
import type { Tenant, Unit } from './tenants.types';
import type { Db } from '../../store/database';
import { rowCodec } from '../../store/rows';

const tenantCodec = rowCodec(tenants);
const unitCodec = rowCodec(units);

/** Records in key order, null for a missing key. */
function inKeyOrder<R extends { id: string }, T>(
  ids: readonly string[],
  rows: R[],
  map: (row: R) => T,
): (T | null)[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    return row ? map(row) : null;
  });
}

/** Tenants and units: read by id, one statement per batch. */
export class SqlTenantsRepository implements TenantsRepository {
  constructor(private readonly db: Db) {}

  async tenantsByIds(ids: readonly string[]): Promise<(Tenant | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return inKeyOrder(ids, rows, tenantCodec.read);
  }

  /** The tenant, if it is one of this facility's. */
  async tenantInFacility(facilityId: string, tenantId: string): Promise<Tenant | undefined> {
    const row = await this.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', tenantId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && tenantCodec.read(row);
  }

  /** The unit, if it is one of this facility's. */
  async unitInFacility(facilityId: string, unitId: string): Promise<Unit | undefined> {
    const row = await this.db
      .selectFrom('units')
      .selectAll()
      .where('id', '=', unitId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && unitCodec.read(row);
  }

  async unitsByIds(ids: readonly string[]): Promise<(Unit | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('units')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return inKeyOrder(ids, rows, unitCodec.read);
  }
}
