import type { SecretBox } from '../../kernel/secret-box';
import type { WriteStep } from './bulk-writer';
import type { Dataset } from './dataset.types';
import type { ResolvedReferences } from './import.references';
import { planClients } from './plans/clients.plan';
import { PlanBuilder, type ImportCounts } from './plans/plan-builder';

export { sortKey, type ImportCounts } from './plans/plan-builder';

/** What an area's part of the writes may read beside the file: what stage 2 found, and the import's instant. */
export interface PlanContext {
  readonly resolved: ResolvedReferences;
  /** The instant of the import, for the rows it dates. */
  readonly now: string;
}

/**
 * An area's part of an import's writes (its `<area>.plan.ts`, named by its module's `datasetPlan`):
 * the steps that write its records of the file, table by table.
 */
export type DatasetPlan = (plan: PlanBuilder, data: Dataset, context: PlanContext) => void;

/**
 * Stage 3 of an import: the writes, table by table, for a file that passed stages 1 and 2. An
 * upsert per table (the same ids again update their records), the lists a record owns replaced
 * whole (flipper actors, amount tiers), and the rate changes' sort keys kept in step with renamed
 * facilities and tenants. Reads nothing: what it needs of the database, stage 2 found. Each area's
 * part is its `plans`, written in the order given (a record's references first: src/modules.ts
 * composes them); the client applications, which name companies, come last.
 */
export function planWrites(
  plans: readonly DatasetPlan[],
  data: Dataset,
  resolved: ResolvedReferences,
  now: string,
  secrets?: SecretBox,
): { steps: WriteStep[]; counts: ImportCounts } {
  const plan = new PlanBuilder();
  for (const part of plans) part(plan, data, { resolved, now });
  planClients(plan, data, now, secrets);
  return { steps: plan.steps, counts: plan.counts };
}
