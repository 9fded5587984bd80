import type { Dataset } from '../dataset.types';
import { cents, lower, type PlanBuilder } from './plan-builder';

/** Ledgers and what each carries: insurance, services and discounts. */
export function planLedgers(plan: PlanBuilder, data: Dataset): void {
  plan.upsert(
    'ledgers',
    ['id', 'facility_id', 'tenant_id', 'unit_id'],
    (data.ledgers ?? []).map((l) => {
      return [lower(l.id), lower(l.facility_id), lower(l.tenant_id), lower(l.unit_id)];
    }),
  );

  plan.upsert(
    'ledger_insurances',
    [
      'id',
      'ledger_id',
      'effective_date',
      'cancel_date',
      'amount_cents',
      'description',
      'retain_type',
      'product_code',
      'policy_number',
      'retain_amount',
      'coverage_amount',
      'coverage_percentage',
      'insurance_provider_key',
    ],
    (data.ledger_insurances ?? []).map((r) => {
      const d = r.data;
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount),
        d.description,
        d.retain_type,
        d.product_code,
        d.policy_number,
        d.retain_amount,
        d.coverage_amount,
        d.coverage_percentage,
        d.insurance_provider_key,
      ];
    }),
  );

  plan.upsert(
    'ledger_services',
    ['id', 'ledger_id', 'effective_date', 'cancel_date', 'amount_cents', 'description', 'product_code'],
    (data.ledger_services ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.effective_date,
        r.cancel_date ?? null,
        cents(r.amount),
        r.data.description,
        r.data.product_code,
      ];
    }),
  );

  plan.upsert(
    'ledger_discounts',
    ['id', 'ledger_id', 'name', 'kind', 'description', 'start_date', 'end_date', 'min_occupancy_months'],
    (data.ledger_discounts ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.ledger_id),
        r.name,
        r.kind,
        r.description,
        r.start_date,
        r.end_date ?? null,
        r.min_occupancy_months ?? null,
      ];
    }),
  );
}
