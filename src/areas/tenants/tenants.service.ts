import { DomainError, type Path } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { storedKeys } from '../../kernel/ids';
import type { TenantsRepository } from './tenants.ports';
import type { Tenant, Unit } from './tenants.types';

export class TenantsService {
  constructor(private readonly repository: TenantsRepository) {}

  /** The facility's tenant (404/9 naming the parameter otherwise, also for another facility's). */
  async tenantFor(facility: Facility, tenantId: string, parameter: Path = ['tenantId']): Promise<Tenant> {
    const [tenant] = await this.tenantsByIds([tenantId]);
    if (!tenant || tenant.facilityId !== facility.id)
      throw DomainError.notFound(parameter, 'tenant', tenantId);
    return tenant;
  }

  /** The facility's unit (404/9 naming the parameter otherwise, also for another facility's). */
  async unitFor(facility: Facility, unitId: string, parameter: Path = ['unitId']): Promise<Unit> {
    const [unit] = await this.unitsByIds([unitId]);
    if (!unit || unit.facilityId !== facility.id) throw DomainError.notFound(parameter, 'unit', unitId);
    return unit;
  }

  /** Tenants by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async tenantsByIds(ids: readonly string[]): Promise<(Tenant | null)[]> {
    const keys = storedKeys(ids);
    if (keys.every((key) => key === '')) return keys.map(() => null);
    return this.repository.tenantsByIds(keys);
  }

  /** Units by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async unitsByIds(ids: readonly string[]): Promise<(Unit | null)[]> {
    const keys = storedKeys(ids);
    if (keys.every((key) => key === '')) return keys.map(() => null);
    return this.repository.unitsByIds(keys);
  }
}
