import { tenants, units } from './tenants.tables';
import { datasetSchema } from '../../store/dataset/dataset.schema';
import type { Dataset } from '../../store/dataset/dataset.types';
import { datasetRowOf, type PlanBuilder } from '../../store/dataset/plans/plan-builder';

const tenantRowOf = datasetRowOf(tenants, datasetSchema.properties.tenants.items.properties);
const unitRowOf = datasetRowOf(units, datasetSchema.properties.units.items.properties);

/** Tenants and units of facilities. */
export function planTenantsAndUnits(plan: PlanBuilder, data: Dataset): void {
  plan.upsertRows('tenants', (data.tenants ?? []).map(tenantRowOf));
  plan.upsertRows('units', (data.units ?? []).map(unitRowOf));
}
