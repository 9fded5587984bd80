import { areaModule } from '../../area-module';
import { CompanyRateChangesResolver, RateChangeUpdatesResolver } from './rate-changes.resolver';
import { RATE_CHANGES_ROUTES } from './rate-changes.routes';
import * as RateChangeUpdate from './rate-change-update.contract';
import { rateChangesTables } from './rate-changes.tables';
import { RATE_CHANGE_UPDATES_KEPT } from './rate-changes.kept';
import { RATE_CHANGE_LISTINGS } from './rate-changes.listings';
import { RATE_CHANGES_ENTITIES } from './rate-changes.entities';
import { rateChangesLoaders } from './rate-changes.loaders';
import { planRateChanges } from './rate-changes.plan';

/** The rate-changes area, as the kits take it (see AreaModule). */
export const rateChangesModule = areaModule({
  name: 'rate-changes',
  routes: RATE_CHANGES_ROUTES,
  resolvers: [CompanyRateChangesResolver, RateChangeUpdatesResolver],
  schemas: [RateChangeUpdate.schema],
  loaders: rateChangesLoaders,
  entities: RATE_CHANGES_ENTITIES,
  tables: rateChangesTables,
  kept: { rateChangeUpdates: RATE_CHANGE_UPDATES_KEPT },
  listings: RATE_CHANGE_LISTINGS,
  datasetPlan: planRateChanges,
});
