import type { Dataset } from '../dataset.types';
import { cents, lower, type PlanBuilder } from './plan-builder';

/** Tenants and units of facilities. */
export function planTenantsAndUnits(plan: PlanBuilder, data: Dataset): void {
  plan.upsert(
    'tenants',
    ['id', 'facility_id', 'first_name', 'last_name', 'email', 'phone'],
    (data.tenants ?? []).map((t) => {
      return [lower(t.id), lower(t.facility_id), t.first_name, t.last_name, t.email ?? null, t.phone ?? null];
    }),
  );
  plan.upsert(
    'units',
    ['id', 'facility_id', 'name', 'rate_cents'],
    (data.units ?? []).map((u) => {
      return [lower(u.id), lower(u.facility_id), u.name, cents(u.rate)];
    }),
  );
}
