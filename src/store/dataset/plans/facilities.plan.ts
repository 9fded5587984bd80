import type { Dataset } from '../dataset.types';
import { flag, lower, type PlanBuilder } from './plan-builder';

/** Companies and their facilities. */
export function planFacilities(plan: PlanBuilder, data: Dataset): void {
  plan.upsert(
    'companies',
    ['id', 'name'],
    (data.companies ?? []).map((c) => [lower(c.id), c.name]),
  );
  plan.upsert(
    'facilities',
    ['id', 'company_id', 'name', 'time_zone', 'tenant_payments_disabled'],
    (data.facilities ?? []).map((f) => {
      const zone = f.time_zone ?? 'UTC';
      return [lower(f.id), lower(f.company_id), f.name, zone, flag(f.tenant_payments_disabled, false)];
    }),
  );
}
