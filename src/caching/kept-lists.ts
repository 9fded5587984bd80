import type { RevisionScope } from '../kernel/revisions';

/** What a facility's or a company's kept answer is scoped by: its id (a Facility, a Company). */
interface Owner {
  readonly id: string;
}
type Facility = Owner;
type Company = Owner;

/** An answer kept between requests: the revision scope of the data it reads, from what it reads under. */
export interface KeptList<Owner> {
  scope(owner: Owner): RevisionScope;
}

/**
 * Every answer kept between requests, with the scope it is checked against: declared here once,
 * named by the REST routes (route option `kept`) and the GraphQL fields (`@Kept`) that serve it.
 * A kept answer is valid while its scopes' tokens are those read before its data was.
 */
export const KEPT_LISTS = {
  /** A facility or a company itself (names, zones, owners). */
  facilities: { scope: () => 'facilities' } satisfies KeptList<unknown>,
  /** A facility's enabled flags. */
  flippers: { scope: () => 'flippers' } satisfies KeptList<Facility>,
  /** A facility's invoiceable items with their tiers and stock. */
  invoiceableItems: { scope: (facility: Facility) => `items:${facility.id}` } satisfies KeptList<Facility>,
  /** A facility's ledgers with their insurance, services and discounts. */
  ledgers: { scope: (facility: Facility) => `ledgers:${facility.id}` } satisfies KeptList<Facility>,
  /** A facility's rate applied actions. */
  rateAppliedActions: {
    scope: (facility: Facility) => `actions:${facility.id}`,
  } satisfies KeptList<Facility>,
  /** A company's rate changes with the names they show. */
  rateChangeUpdates: { scope: () => 'rate_changes' } satisfies KeptList<Company>,
} as const;
