import { areaModule } from '../../area-module';
import { FacilityTenantsResolver, TenantsResolver, UnitsResolver } from './tenants.resolver';
import { tenantsLoaders } from './tenants.loaders';
import { tenantsTables } from './tenants.tables';

/** The tenants area, as the kits take it (see AreaModule). */
export const tenantsModule = areaModule({
  name: 'tenants',
  resolvers: [FacilityTenantsResolver, TenantsResolver, UnitsResolver],
  loaders: tenantsLoaders,
  tables: tenantsTables,
});
