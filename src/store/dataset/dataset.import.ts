import { sql } from 'kysely';
import type { SecretBox } from '../../kernel/secret-box';
import type { Store } from '../database';
import { runWritePlan } from './bulk-writer';
import { checkFile } from './import.check';
import { planWrites, type DatasetPlan, type ImportCounts } from './import.plan';
import { resolveReferences } from './import.references';

export { storedInstant } from './import.check';
export { sortKey, type DatasetPlan, type ImportCounts } from './import.plan';

/** The file was refused; nothing was written. Each problem names the record and field at fault. */
export class DatasetError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    super(
      `dataset refused (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}${more}`,
    );
  }
}

export interface ImportOptions {
  /**
   * Skips the JSON-schema pass, for generated data whose shape the test suite already checks against
   * the schema (the demo seed). References and value rules are still checked.
   */
  shapeTrusted?: boolean;
  /** Seals the consumer secrets of client applications (SECRETS_KEY); kept in clear when absent. */
  secrets?: SecretBox;
}

/**
 * Loads a dataset file in four stages: check the file on its own (its shape and the rules within
 * it), resolve what it names (in the file or the database), plan the writes table by table, and
 * apply them in one transaction. Every problem of the first two stages is reported together, each
 * once; a refused file writes nothing. Importing the same ids again updates those records. The
 * writes are the areas' `plans`, in the order given (`DATASET_PLANS` of src/modules.ts).
 */
export async function importDataset(
  store: Store,
  plans: readonly DatasetPlan[],
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportCounts> {
  const file = checkFile(input, options);
  if (file.fatal) throw new DatasetError(file.problems);
  const resolved = await resolveReferences(store, file);
  const problems = [...file.problems, ...resolved.problems];
  if (problems.length > 0) throw new DatasetError(problems);
  const plan = planWrites(plans, file.data, resolved, new Date().toISOString(), options.secrets);
  await runWritePlan(store, plan.steps);
  return plan.counts;
}

/** Tables that gained at least this many rows get fresh planner statistics after a load. */
export const ANALYZE_AFTER_ROWS = 1000;

/** Tables written by triggers as the keyed tables are loaded. */
const DERIVED_TABLES: Record<string, readonly string[]> = {
  rate_changes: [
    'rate_change_daily_counts',
    'rate_change_monthly_counts',
    'rate_change_creator_daily_counts',
  ],
};

/**
 * PostgreSQL: fresh planner statistics and visibility for the tables a large load wrote, so the
 * first requests after it are planned from what is there (right after a bulk load PostgreSQL
 * believed a company's 10,000 rate changes to be one, and sorted the whole window for a page instead
 * of walking the ordering index: 12 ms instead of 1), and index-only scans read no table page.
 * Autovacuum would get there, later. SQLite's plans are chosen by the repositories and need none.
 */
export async function refreshPlannerStatistics(store: Store, counts: ImportCounts): Promise<void> {
  if (store.dialect !== 'postgres') return;
  const tables = Object.entries(counts)
    .filter(([, rows]) => rows >= ANALYZE_AFTER_ROWS)
    .flatMap(([table]) => [table, ...(DERIVED_TABLES[table] ?? [])]);
  // VACUUM also marks the new rows' pages all-visible, so index-only scans (a rate change page
  // along the ordering index, which includes the listing) read no table page.
  for (const table of tables) await sql`vacuum (analyze) ${sql.table(table)}`.execute(store.db);
}
