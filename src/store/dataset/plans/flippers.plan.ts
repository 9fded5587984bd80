import type { Dataset } from '../dataset.types';
import { flag, lower, type PlanBuilder } from './plan-builder';

/** Flippers, each with its list of companies and facilities replaced whole. */
export function planFlippers(plan: PlanBuilder, data: Dataset): void {
  if (!data.flippers?.length) return;
  plan.upsert(
    'flippers',
    ['name', 'enabled_globally'],
    data.flippers.map((f) => [f.name, flag(f.enabled_globally, false)]),
    ['name'],
  );
  plan.deleteIn(
    'flipper_actors',
    'flipper_name',
    data.flippers.map((f) => f.name),
  );
  const actors: unknown[][] = [];
  data.flippers.forEach((f) => {
    for (const id of new Set((f.company_ids ?? []).map(lower))) {
      actors.push([f.name, 'company', id]);
    }
    for (const id of new Set((f.facility_ids ?? []).map(lower))) {
      actors.push([f.name, 'facility', id]);
    }
  });
  plan.upsert('flipper_actors', ['flipper_name', 'actor_type', 'actor_id'], actors, [
    'flipper_name',
    'actor_type',
    'actor_id',
  ]);
}
