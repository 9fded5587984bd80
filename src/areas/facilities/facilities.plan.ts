import type { Dataset } from '../../store/dataset/dataset.types';
import { flag, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/** Companies and their facilities. */
export function planFacilities(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows(
    'companies',
    (data.companies ?? []).map((c) => ({ id: lower(c.id), name: c.name })),
  );
  plan.upsertRows(
    'facilities',
    (data.facilities ?? []).map((f) => ({
      id: lower(f.id),
      company_id: lower(f.company_id),
      name: f.name,
      time_zone: f.time_zone ?? 'UTC',
      tenant_payments_disabled: flag(f.tenant_payments_disabled, false),
    })),
  );
}
