import type { RevisionScope } from '../kernel/revisions';

/**
 * An answer kept between requests: the revision scope of the data it reads, from what it reads
 * under. Each area declares its own (`<area>.kept.ts`), named by the REST routes (route option
 * `kept`) and the GraphQL fields (`@Kept`) that serve it, and its module hands them in
 * (`KEPT_LISTS` of src/modules.ts). A kept answer is valid while its scopes' tokens are those read
 * before its data was.
 */
export interface KeptList<Owner> {
  scope(owner: Owner): RevisionScope;
}
