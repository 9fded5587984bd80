import type { EntityReferences } from '../../graphql/federation';
import { present } from './rate-change-update.contract';

/** Federation entities: a rate change by id, as the company's pages answer it; null for another company's. */
export const RATE_CHANGES_ENTITIES = {
  RateChangeUpdate: async (id, { loaders }) => {
    const change = await loaders.rateChanges.load(id);
    return change && present(change);
  },
} satisfies EntityReferences;
