import type { EntityReferences } from '../../graphql/federation';

/** Federation entities: a facility and a company by id, null for another company's. */
export const FACILITIES_ENTITIES = {
  Facility: (id, { loaders }) => loaders.facilities.load(id),
  Company: (id, { loaders }) => loaders.companies.load(id),
} satisfies EntityReferences;
