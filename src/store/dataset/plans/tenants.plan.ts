import type { Dataset } from '../dataset.types';
import { cents, lower, type PlanBuilder } from './plan-builder';

/** Tenants and units of facilities. */
export function planTenantsAndUnits(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows(
    'tenants',
    (data.tenants ?? []).map((t) => ({
      id: lower(t.id),
      facility_id: lower(t.facility_id),
      first_name: t.first_name,
      last_name: t.last_name,
      email: t.email ?? null,
      phone: t.phone ?? null,
    })),
  );
  plan.upsertRows(
    'units',
    (data.units ?? []).map((u) => ({
      id: lower(u.id),
      facility_id: lower(u.facility_id),
      name: u.name,
      rate_cents: cents(u.rate),
    })),
  );
}
