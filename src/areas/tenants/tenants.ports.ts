import type { Tenant, Unit } from './tenants.types';

/** Tenants and units, looked up by every area that names one. */
export interface TenantsRepository {
  /** Tenants by id, in key order, null for a missing id. */
  tenantsByIds(ids: readonly string[]): Promise<(Tenant | null)[]>;
  /** Units by id, in key order, null for a missing id. */
  unitsByIds(ids: readonly string[]): Promise<(Unit | null)[]>;
  /** The tenant, if it is one of this facility's. */
  tenantInFacility(facilityId: string, tenantId: string): Promise<Tenant | undefined>;
  /** The unit, if it is one of this facility's. */
  unitInFacility(facilityId: string, unitId: string): Promise<Unit | undefined>;
}
