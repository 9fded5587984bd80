import { areaModule } from '../../area-module';
import {
  FacilityRateAppliedActionsResolver,
  RateAppliedActionsResolver,
} from './rate-applied-actions.resolver';
import { RATE_APPLIED_ACTIONS_ROUTES } from './rate-applied-actions.routes';
import * as RateAppliedAction from './rate-applied-action.contract';
import { rateAppliedActionsTables } from './rate-applied-actions.tables';
import { RATE_APPLIED_ACTIONS_KEPT } from './rate-applied-actions.kept';
import { RATE_APPLIED_ACTIONS_ENTITIES } from './rate-applied-actions.entities';
import { rateAppliedActionsLoaders } from './rate-applied-actions.loaders';
import { planRateAppliedActions } from './rate-applied-actions.plan';

/** The rate-applied-actions area, as the kits take it (see AreaModule). */
export const rateAppliedActionsModule = areaModule({
  name: 'rate-applied-actions',
  routes: RATE_APPLIED_ACTIONS_ROUTES,
  resolvers: [FacilityRateAppliedActionsResolver, RateAppliedActionsResolver],
  schemas: [RateAppliedAction.schema],
  loaders: rateAppliedActionsLoaders,
  entities: RATE_APPLIED_ACTIONS_ENTITIES,
  tables: rateAppliedActionsTables,
  kept: { rateAppliedActions: RATE_APPLIED_ACTIONS_KEPT },
  datasetPlan: planRateAppliedActions,
});
