import type { TSchema } from '@sinclair/typebox';
import type { KeptList } from './caching/kept-lists';
import type { LoaderFactory } from './graphql/loaders';
import type { EntityReferences } from './graphql/federation';
import type { Columns, TablesOf } from './kernel/columns';
import type { ResolverClassOf } from './graphql/resolver-instances';
import type { ListingSource } from './store/listings';
import type { ContractRoute } from './rest/contract-routes';
import type { EventAudience, EventDeclaration, EventListener } from './kernel/domain-events';
import type { Db } from './store/database';
import type { DatasetPlan } from './store/dataset/import.plan';
import type { V1Scope } from './rest/v1';

/**
 * What an area gives the kits, each under `src/areas/<area>/<area>.module.ts`: its /v1 routes, its
 * GraphQL resolver classes and loaders, the contract's records it declares (shared schemas of
 * /v1/openapi.json), its tables and its kept lists, the events it reports and those it listens to,
 * its part of a dataset import's writes. Each route, resolver and loader names the services it
 * uses; the composition root (src/modules.ts) lists the modules and derives every central list from
 * them, and the services the kits are handed from what the modules name. A kit imports no area:
 * where it needs an area's type it declares the shape (a generic, or an interface the areas extend,
 * as `Loaders` and `Database`), and the root checks the areas' declarations are the modules'.
 */
export interface AreaModule {
  readonly name: string;
  /** The contract's routes of the area, in the order /v1/openapi.json lists them. */
  readonly routes?: readonly ContractRoute<never>[];
  /** The /v1 scopes the area declares: the routes under a path parameter of its and their hooks (see V1Scope). */
  readonly scopes?: readonly V1Scope<never>[];
  /** The area's GraphQL resolver classes: fields on its own object types or on the facility's and company's. */
  readonly resolvers?: readonly ResolverClassOf<never>[];
  /** The contract's records the area declares: a component of the OpenAPI document each (by `$id`). */
  readonly schemas?: readonly TSchema[];
  /** The area's per-request GraphQL loaders (declared in `Loaders` by its `<area>.loaders.ts`). */
  readonly loaders?: LoaderFactory<never>;
  /**
   * The area's Federation entities (`@key(fields: "id")`), each resolved by id through the request's
   * loaders as its type's fields expect (docs/graphql.md#federation).
   */
  readonly entities?: EntityReferences;
  /** The area's tables by their SQL names (declared in the store's `Database` by its `<area>.tables.ts`). */
  readonly tables?: Readonly<Record<string, Columns>>;
  /** The answers of the area kept between requests, each with its revision scope (`<area>.kept.ts`). */
  readonly kept?: Readonly<Record<string, KeptList<never>>>;
  /** The stored listings of the area's table, as this release writes them (`<area>.listings.ts`). */
  readonly listings?: ListingSource;
  /** The events the area reports (`<area>.events.ts`): their types and who hears them. */
  readonly events?: readonly EventDeclaration[];
  /**
   * The area's listeners of the events of every area: each hears, within the writing transaction,
   * the events declared for its audience (`every`: all of them).
   */
  readonly listeners?: readonly EventSubscription[];
  /**
   * The area's part of a dataset import's writes (`<area>.plan.ts`): its records of the file, table
   * by table. The root writes the parts in the order of `WRITE_ORDER` (src/modules.ts).
   */
  readonly datasetPlan?: DatasetPlan;
}

/** A listener of an area and the events it hears: those declared for `hears`, or every event. */
export interface EventSubscription {
  readonly hears: EventAudience | 'every';
  readonly listen: EventListener<Db>;
}

/** An area's module, its types kept as written (the root derives the services from them). */
export function areaModule<const M extends AreaModule>(module: M): M {
  return module;
}

/** `A | B` as `A & B`. */
export type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (
  intersection: infer I,
) => void
  ? I
  : never;

/** The services a route is made with. */
type ServicesOfRoute<R> = R extends ContractRoute<infer S> ? S : never;
/** The services a resolver class is made with (a class made with none adds nothing: never, not unknown, in a union). */
type ServicesOfResolver<R> = R extends new (...args: infer A) => object
  ? A extends [infer S, ...unknown[]]
    ? S
    : never
  : never;

/** The services a /v1 scope is made with. */
type ServicesOfScope<S> = S extends V1Scope<infer T> ? T : never;

/** Everything the modules' routes and /v1 scopes ask of the services, together. */
export type RouteServicesOf<M extends AreaModule> = UnionToIntersection<
  | (M extends { routes: readonly (infer R)[] } ? ServicesOfRoute<R> : never)
  | (M extends { scopes: readonly (infer S)[] } ? ServicesOfScope<S> : never)
>;

/** Everything the modules' resolver classes ask of the services, together. */
export type ResolverServicesOf<M extends AreaModule> = UnionToIntersection<
  M extends { resolvers: readonly (infer R)[] } ? ServicesOfResolver<R> : never
>;

/** Everything the modules' loaders read of the services, together. */
export type LoaderServicesOf<M extends AreaModule> = UnionToIntersection<
  M extends { loaders: (services: infer S, ...rest: never[]) => object } ? S : never
>;

/** The loaders the modules make, together. */
export type LoadersOf<M extends AreaModule> = UnionToIntersection<
  M extends { loaders: (...args: never[]) => infer L } ? L : never
>;

/** The modules' kept lists, together. */
export type KeptListsOf<M extends AreaModule> = UnionToIntersection<
  M extends { kept: infer K extends Record<string, KeptList<never>> } ? K : never
>;

/** The rows of the modules' tables, together. */
export type TablesOfModules<M extends AreaModule> = UnionToIntersection<
  M extends { tables: infer T extends Record<string, Columns> } ? TablesOf<T> : never
>;

/** A module whose routes are made with the services `R` (or with less), its resolvers with `G`, its loaders with `L`. */
export interface AreaModuleOf<R, G, L> extends AreaModule {
  readonly routes?: readonly ContractRoute<R>[];
  readonly scopes?: readonly V1Scope<R>[];
  readonly resolvers?: readonly ResolverClassOf<G>[];
  readonly loaders?: LoaderFactory<L>;
}
