import type { Dataset, DatasetLedgerInsurance, DatasetLedgerService } from '../dataset.types';
import { cents, lower, type PlanBuilder } from './plan-builder';

/** Ledgers and what each carries: insurance, services and discounts. */
export function planLedgers(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows(
    'ledgers',
    (data.ledgers ?? []).map((l) => ({
      id: lower(l.id),
      facility_id: lower(l.facility_id),
      tenant_id: lower(l.tenant_id),
      unit_id: lower(l.unit_id),
    })),
  );

  // A policy's or service's `data` is stored as columns of the same names (stage 1 checked that it
  // holds those and no others).
  plan.upsertRows(
    'ledger_insurances',
    (data.ledger_insurances ?? []).map((r) => ({ ...chargeColumns(r), ...r.data })),
  );
  plan.upsertRows(
    'ledger_services',
    (data.ledger_services ?? []).map((r) => ({ ...chargeColumns(r), ...r.data })),
  );

  plan.upsertRows(
    'ledger_discounts',
    (data.ledger_discounts ?? []).map((r) => ({
      id: lower(r.id),
      ledger_id: lower(r.ledger_id),
      name: r.name,
      kind: r.kind,
      description: r.description,
      start_date: r.start_date,
      end_date: r.end_date ?? null,
      min_occupancy_months: r.min_occupancy_months ?? null,
    })),
  );
}

/** The columns a policy and a service share: their keys, dates and amount in cents. */
function chargeColumns(charge: DatasetLedgerInsurance | DatasetLedgerService) {
  return {
    id: lower(charge.id),
    ledger_id: lower(charge.ledger_id),
    effective_date: charge.effective_date,
    cancel_date: charge.cancel_date ?? null,
    amount_cents: cents(charge.amount),
  };
}
