import { areaModule } from '../../area-module';
import { FacilityTenantsResolver, TenantsResolver, UnitsResolver } from './tenants.resolver';
import { tenantsLoaders } from './tenants.loaders';
import { tenantsTables } from './tenants.tables';
import { TENANTS_ENTITIES } from './tenants.entities';
import { planTenantsAndUnits } from './tenants.plan';

/** The tenants area, as the kits take it (see AreaModule). */
export const tenantsModule = areaModule({
  name: 'tenants',
  resolvers: [FacilityTenantsResolver, TenantsResolver, UnitsResolver],
  loaders: tenantsLoaders,
  entities: TENANTS_ENTITIES,
  tables: tenantsTables,
  datasetPlan: planTenantsAndUnits,
});
