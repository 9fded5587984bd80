import { ledgerCharge, ledgerDiscounts, ledgers } from './ledgers.tables';
import { datasetSchema } from '../../store/dataset/dataset.schema';
import type { Dataset } from '../../store/dataset/dataset.types';
import { datasetRowOf, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

const { properties } = datasetSchema;
const ledgerRowOf = datasetRowOf(ledgers, properties.ledgers.items.properties);
// A policy and a service share the same columns beside their terms (and the same fields in the file).
const chargeRowOf = datasetRowOf(ledgerCharge, properties.ledger_insurances.items.properties);
const discountRowOf = datasetRowOf(ledgerDiscounts, properties.ledger_discounts.items.properties);

/** Ledgers and what each carries: insurance, services and discounts. */
export function planLedgers(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows('ledgers', (data.ledgers ?? []).map(ledgerRowOf));

  // A policy's or service's `data` is stored as columns of the same names (stage 1 checked that it
  // holds those and no others).
  plan.upsertRows(
    'ledger_insurances',
    (data.ledger_insurances ?? []).map((r) => ({ ...chargeRowOf(r), ...r.data })),
  );
  plan.upsertRows(
    'ledger_services',
    (data.ledger_services ?? []).map((r) => ({ ...chargeRowOf(r), ...r.data })),
  );

  plan.upsertRows('ledger_discounts', (data.ledger_discounts ?? []).map(discountRowOf));
}
