import type { SecretBox } from '../../kernel/secret-box';
import type { WriteStep } from './bulk-writer';
import type { Dataset } from './dataset.types';
import type { ResolvedReferences } from './import.references';
import { planClients } from './plans/clients.plan';
import { planEventsAndDocuments } from './plans/documents.plan';
import { planFacilities } from './plans/facilities.plan';
import { planFlippers } from './plans/flippers.plan';
import { planInvoiceableItems } from './plans/invoiceable-items.plan';
import { planLedgers } from './plans/ledgers.plan';
import { planPaymentMethods } from './plans/payments.plan';
import { PlanBuilder, type ImportCounts } from './plans/plan-builder';
import { planRateAppliedActions } from './plans/rate-applied-actions.plan';
import { planRateChanges, planRateChangesInStep } from './plans/rate-changes.plan';
import { planTenantsAndUnits } from './plans/tenants.plan';

export { sortKey, type ImportCounts } from './plans/plan-builder';

/**
 * Stage 3 of an import: the writes, table by table, for a file that passed stages 1 and 2. An
 * upsert per table (the same ids again update their records), the lists a record owns replaced
 * whole (flipper actors, amount tiers), and the rate changes' sort keys kept in step with renamed
 * facilities and tenants. Reads nothing: what it needs of the database, stage 2 found. Each area's
 * part is in `plans/`; the order here is the order of the writes (a record's references first).
 */
export function planWrites(
  data: Dataset,
  resolved: ResolvedReferences,
  now: string,
  secrets?: SecretBox,
): { steps: WriteStep[]; counts: ImportCounts } {
  const plan = new PlanBuilder();
  planFacilities(plan, data);
  planFlippers(plan, data);
  planTenantsAndUnits(plan, data);
  planLedgers(plan, data);
  planRateAppliedActions(plan, data);
  planEventsAndDocuments(plan, data);
  planInvoiceableItems(plan, data);
  planPaymentMethods(plan, data, now);
  planRateChanges(plan, data, resolved);
  planRateChangesInStep(plan, data, resolved);
  planClients(plan, data, now, secrets);
  return { steps: plan.steps, counts: plan.counts };
}
