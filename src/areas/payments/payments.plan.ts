import type { Dataset } from '../../store/dataset/dataset.types';
import type { PlanContext } from '../../store/dataset/import.plan';
import { flag, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/**
 * Stored payment methods (card last four and type only; no card number is ever in a dataset). A
 * method imported again keeps its gateway token, which no dataset carries.
 */
export function planPaymentMethods(plan: PlanBuilder, data: Dataset, { now }: PlanContext): void {
  plan.upsertRows(
    'payment_methods',
    (data.payment_methods ?? []).map((p) => ({
      id: lower(p.id),
      facility_id: lower(p.facility_id),
      tenant_id: p.tenant_id ? lower(p.tenant_id) : null,
      kind: p.kind,
      first_name: p.first_name,
      last_name: p.last_name,
      reuseable: flag(p.reuseable, true),
      card_last4: p.card_last4 ?? null,
      card_type: p.card_type ?? null,
      expiration_date: p.expiration_date ?? null,
      billing_address: p.billing_address ? JSON.stringify(p.billing_address) : null,
      created_at: now,
    })),
  );
}
