import type { Db } from '../database';
import type { TenantsTable, UnitsTable } from '../schema';

export type TenantRow = TenantsTable;
export type UnitRow = UnitsTable;

/** Rows in key order, null for a missing key. */
function inKeyOrder<R extends { id: string }>(ids: readonly string[], rows: R[]): (R | null)[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Tenants and units: read by id, one statement per batch. */
export class TenantsRepository {
  constructor(private readonly db: Db) {}

  async tenantsByIds(ids: readonly string[]): Promise<(TenantRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return inKeyOrder(ids, rows);
  }

  /** The tenant, if it is one of this facility's. */
  tenantInFacility(facilityId: string, tenantId: string): Promise<TenantRow | undefined> {
    return this.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', tenantId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
  }

  /** The unit, if it is one of this facility's. */
  unitInFacility(facilityId: string, unitId: string): Promise<UnitRow | undefined> {
    return this.db
      .selectFrom('units')
      .selectAll()
      .where('id', '=', unitId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
  }

  async unitsByIds(ids: readonly string[]): Promise<(UnitRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('units')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return inKeyOrder(ids, rows);
  }
}
