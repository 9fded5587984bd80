import type { TenantRow, TenantsRepository, UnitRow } from '../../store/repositories/tenants.repository';
import { DomainError } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../shared/ids';
import { centsToAmount } from '../shared/money';
import type { Tenant, Unit } from './tenants.types';

export function tenantRowToTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    facilityId: row.facility_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
  };
}

export function unitRowToUnit(row: UnitRow): Unit {
  return { id: row.id, facilityId: row.facility_id, name: row.name, rate: centsToAmount(row.rate_cents) };
}

/** Ids as stored (lower-case); a malformed id becomes a key that matches nothing. */
function storedKeys(ids: readonly string[]): string[] {
  return ids.map((id) => (isUuid(id) ? normalizeId(id) : ''));
}

export class TenantsService {
  constructor(private readonly repository: TenantsRepository) {}

  /** The facility's tenant (404/9 naming the parameter otherwise, also for another facility's). */
  async tenantFor(facility: Facility, tenantId: string, parameter = 'tenant_id'): Promise<Tenant> {
    const [tenant] = await this.tenantsByIds([tenantId]);
    if (!tenant || tenant.facilityId !== facility.id)
      throw DomainError.notFound(parameter, 'tenant', tenantId);
    return tenant;
  }

  /** The facility's unit (404/9 naming the parameter otherwise, also for another facility's). */
  async unitFor(facility: Facility, unitId: string, parameter = 'unit_id'): Promise<Unit> {
    const [unit] = await this.unitsByIds([unitId]);
    if (!unit || unit.facilityId !== facility.id) throw DomainError.notFound(parameter, 'unit', unitId);
    return unit;
  }

  /** Tenants by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async tenantsByIds(ids: readonly string[]): Promise<(Tenant | null)[]> {
    const keys = storedKeys(ids);
    if (keys.every((key) => key === '')) return keys.map(() => null);
    const rows = await this.repository.tenantsByIds(keys);
    return rows.map((row) => (row ? tenantRowToTenant(row) : null));
  }

  /** Units by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async unitsByIds(ids: readonly string[]): Promise<(Unit | null)[]> {
    const keys = storedKeys(ids);
    if (keys.every((key) => key === '')) return keys.map(() => null);
    const rows = await this.repository.unitsByIds(keys);
    return rows.map((row) => (row ? unitRowToUnit(row) : null));
  }
}
