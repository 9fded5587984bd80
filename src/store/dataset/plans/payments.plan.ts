import type { Dataset } from '../dataset.types';
import { flag, lower, type PlanBuilder } from './plan-builder';

/** Stored payment methods (card last four and type only; no card number is ever in a dataset). */
export function planPaymentMethods(plan: PlanBuilder, data: Dataset, now: string): void {
  plan.upsert(
    'payment_methods',
    [
      'id',
      'facility_id',
      'tenant_id',
      'kind',
      'first_name',
      'last_name',
      'reuseable',
      'card_last4',
      'card_type',
      'expiration_date',
      'billing_address',
      'created_at',
    ],
    (data.payment_methods ?? []).map((p) => {
      return [
        lower(p.id),
        lower(p.facility_id),
        p.tenant_id ? lower(p.tenant_id) : null,
        p.kind,
        p.first_name,
        p.last_name,
        flag(p.reuseable, true),
        p.card_last4 ?? null,
        p.card_type ?? null,
        p.expiration_date ?? null,
        p.billing_address ? JSON.stringify(p.billing_address) : null,
        now,
      ];
    }),
  );
}
