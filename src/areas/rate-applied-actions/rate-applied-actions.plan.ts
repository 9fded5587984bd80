import type { Dataset } from '../../store/dataset/dataset.types';
import { cents, instant, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/** Rate applied actions (move-ins and transfers at a rate). */
export function planRateAppliedActions(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows(
    'rate_applied_actions',
    (data.rate_applied_actions ?? []).map((r) => ({
      id: lower(r.id),
      facility_id: lower(r.facility_id),
      applied_rate_name: r.rate_info.applied_rate.name,
      applied_rate_cents: cents(r.rate_info.applied_rate.amount),
      standard_rate_cents: cents(r.rate_info.standard_rate),
      source: r.source,
      completed_on: r.completed_on,
      completed_by: r.completed_by ?? '',
      employee_id: r.employee_id ?? '',
      user_id: r.user_id ?? '',
      time_completed: instant(r.time_completed),
      event: r.event,
      old_ledger_id: r.old_ledger_id ? lower(r.old_ledger_id) : '',
      new_ledger_id: lower(r.new_ledger_id),
      unit_id: lower(r.unit_id),
      lead_id: lower(r.lead_id),
    })),
  );
}
