import type { Dataset } from '../dataset.types';
import { cents, instant, lower, type PlanBuilder } from './plan-builder';

/** Rate applied actions (move-ins and transfers at a rate). */
export function planRateAppliedActions(plan: PlanBuilder, data: Dataset): void {
  plan.upsert(
    'rate_applied_actions',
    [
      'id',
      'facility_id',
      'applied_rate_name',
      'applied_rate_cents',
      'standard_rate_cents',
      'source',
      'completed_on',
      'completed_by',
      'employee_id',
      'user_id',
      'time_completed',
      'event',
      'old_ledger_id',
      'new_ledger_id',
      'unit_id',
      'lead_id',
    ],
    (data.rate_applied_actions ?? []).map((r) => {
      return [
        lower(r.id),
        lower(r.facility_id),
        r.rate_info.applied_rate.name,
        cents(r.rate_info.applied_rate.amount),
        cents(r.rate_info.standard_rate),
        r.source,
        r.completed_on,
        r.completed_by ?? '',
        r.employee_id ?? '',
        r.user_id ?? '',
        instant(r.time_completed),
        r.event,
        r.old_ledger_id ? lower(r.old_ledger_id) : '',
        lower(r.new_ledger_id),
        lower(r.unit_id),
        lower(r.lead_id),
      ];
    }),
  );
}
