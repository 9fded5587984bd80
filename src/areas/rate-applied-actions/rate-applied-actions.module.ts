import { areaModule } from '../../area-module';
import {
  FacilityRateAppliedActionsResolver,
  RateAppliedActionsResolver,
} from './rate-applied-actions.resolver';
import { RATE_APPLIED_ACTIONS_ROUTES } from './rate-applied-actions.routes';
import * as RateAppliedAction from './rate-applied-action.contract';
import { rateAppliedActionsTables } from './rate-applied-actions.tables';
import { RATE_APPLIED_ACTIONS_KEPT } from './rate-applied-actions.kept';

/** The rate-applied-actions area, as the kits take it (see AreaModule). */
export const rateAppliedActionsModule = areaModule({
  name: 'rate-applied-actions',
  routes: RATE_APPLIED_ACTIONS_ROUTES,
  resolvers: [FacilityRateAppliedActionsResolver, RateAppliedActionsResolver],
  schemas: [RateAppliedAction.schema],
  tables: rateAppliedActionsTables,
  kept: { rateAppliedActions: RATE_APPLIED_ACTIONS_KEPT },
});
