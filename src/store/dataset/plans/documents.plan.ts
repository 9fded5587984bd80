import type { Dataset } from '../dataset.types';
import { flag, instant, lower, type PlanBuilder } from './plan-builder';

/** Events and their documents. */
export function planEventsAndDocuments(plan: PlanBuilder, data: Dataset): void {
  plan.upsert(
    'events',
    ['id', 'facility_id', 'type', 'ledger_id', 'created_at'],
    (data.events ?? []).map((e) => {
      return [
        lower(e.id),
        lower(e.facility_id),
        e.type,
        e.ledger_id ? lower(e.ledger_id) : null,
        instant(e.created_at),
      ];
    }),
  );

  plan.upsert(
    'event_documents',
    ['id', 'event_id', 'description', 'type', 'is_relevant', 'esignable', 'created_at', 'body'],
    (data.event_documents ?? []).map((d) => {
      return [
        lower(d.id),
        lower(d.event_id),
        d.description,
        d.type ?? 'PrintTemplate',
        flag(d.is_relevant, true),
        flag(d.esignable, false),
        instant(d.created_at),
        d.body ?? '',
      ];
    }),
  );
}
