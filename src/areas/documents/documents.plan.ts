import type { Dataset } from '../../store/dataset/dataset.types';
import { flag, instant, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/** Events and their documents. */
export function planEventsAndDocuments(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows(
    'events',
    (data.events ?? []).map((e) => ({
      id: lower(e.id),
      facility_id: lower(e.facility_id),
      type: e.type,
      ledger_id: e.ledger_id ? lower(e.ledger_id) : null,
      created_at: instant(e.created_at),
    })),
  );

  plan.upsertRows(
    'event_documents',
    (data.event_documents ?? []).map((d) => ({
      id: lower(d.id),
      event_id: lower(d.event_id),
      description: d.description,
      type: d.type ?? 'PrintTemplate',
      is_relevant: flag(d.is_relevant, true),
      esignable: flag(d.esignable, false),
      created_at: instant(d.created_at),
      body: d.body ?? '',
    })),
  );
}
