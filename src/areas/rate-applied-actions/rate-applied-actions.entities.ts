import type { EntityReferences } from '../../graphql/federation';
import { present } from './rate-applied-action.contract';

/** Federation entities: a rate applied action by id, in its facility's time zone; null for another company's. */
export const RATE_APPLIED_ACTIONS_ENTITIES = {
  RateAppliedAction: async (id, { loaders }) => {
    const action = await loaders.rateAppliedActions.load(id);
    const facility = action && (await loaders.facilities.load(action.facilityId));
    return action && facility ? present(action, facility.timeZone) : null;
  },
} satisfies EntityReferences;
