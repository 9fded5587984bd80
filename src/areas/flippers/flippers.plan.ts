import type { FlipperActorsTable } from '../../store/schema';
import type { Dataset } from '../../store/dataset/dataset.types';
import { flag, lower, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

/** Flippers, each with its list of companies and facilities replaced whole. */
export function planFlippers(plan: PlanBuilder, data: Dataset): void {
  if (!data.flippers?.length) return;
  plan.upsertRows(
    'flippers',
    data.flippers.map((f) => ({ name: f.name, enabled_globally: flag(f.enabled_globally, false) })),
    ['name'],
  );
  plan.deleteIn(
    'flipper_actors',
    'flipper_name',
    data.flippers.map((f) => f.name),
  );
  const actors: FlipperActorsTable[] = [];
  for (const f of data.flippers) {
    for (const id of new Set((f.company_ids ?? []).map(lower))) {
      actors.push({ flipper_name: f.name, actor_type: 'company', actor_id: id });
    }
    for (const id of new Set((f.facility_ids ?? []).map(lower))) {
      actors.push({ flipper_name: f.name, actor_type: 'facility', actor_id: id });
    }
  }
  plan.upsertRows('flipper_actors', actors, ['flipper_name', 'actor_type', 'actor_id']);
}
