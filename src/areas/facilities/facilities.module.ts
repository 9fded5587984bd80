import { areaModule } from '../../area-module';
import { FacilitiesResolver, CompaniesResolver } from './facilities.resolver';
import { facilitiesLoaders } from './facilities.loaders';
import { facilitiesTables } from './facilities.tables';
import { FACILITIES_KEPT } from './facilities.kept';
import { FACILITIES_ENTITIES } from './facilities.entities';
import { COMPANY_SCOPE, FACILITY_SCOPE } from './facilities.routes';
import { planFacilities } from './facilities.plan';

/** The facilities area, as the kits take it (see AreaModule). */
export const facilitiesModule = areaModule({
  name: 'facilities',
  scopes: [FACILITY_SCOPE, COMPANY_SCOPE],
  resolvers: [FacilitiesResolver, CompaniesResolver],
  loaders: facilitiesLoaders,
  entities: FACILITIES_ENTITIES,
  tables: facilitiesTables,
  kept: { facilities: FACILITIES_KEPT },
  datasetPlan: planFacilities,
});
