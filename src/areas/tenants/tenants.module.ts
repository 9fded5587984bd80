import { areaModule } from '../../area-module';
import { FacilityTenantsResolver, TenantsResolver, UnitsResolver } from './tenants.resolver';

/** The tenants area, as the kits take it (see AreaModule). */
export const tenantsModule = areaModule({
  name: 'tenants',
  resolvers: [FacilityTenantsResolver, TenantsResolver, UnitsResolver],
});
