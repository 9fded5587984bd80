import type { EntityReferences } from '../../graphql/federation';

/** Federation entities: a tenant and a unit by id, null for another company's. */
export const TENANTS_ENTITIES = {
  Tenant: (id, { loaders }) => loaders.tenants.load(id),
  Unit: (id, { loaders }) => loaders.units.load(id),
} satisfies EntityReferences;
