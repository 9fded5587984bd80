// First: the area modules it composes declare TypeGraphQL classes, whose decorators read it.
import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import type {
  AreaModule,
  AreaModuleOf,
  KeptListsOf,
  LoadersOf,
  LoaderServicesOf,
  TablesOfModules,
  ResolverServicesOf,
  RouteServicesOf,
} from './area-module';
// In the order their GraphQL classes are declared: the schema's types and fields stand in it.
import { facilitiesModule } from './areas/facilities/facilities.module';
import { flippersModule } from './areas/flippers/flippers.module';
import { documentsModule } from './areas/documents/documents.module';
import { invoiceableItemsModule } from './areas/invoiceable-items/invoiceable-items.module';
import { ledgersModule } from './areas/ledgers/ledgers.module';
import { notesModule } from './areas/notes/notes.module';
import { rateAppliedActionsModule } from './areas/rate-applied-actions/rate-applied-actions.module';
import { rateChangesModule } from './areas/rate-changes/rate-changes.module';
import { tenantsModule } from './areas/tenants/tenants.module';
import { moveInsModule } from './areas/move-ins/move-ins.module';
import { paymentsModule } from './areas/payments/payments.module';
import { outboxModule } from './areas/outbox/outbox.module';
import { esignModule } from './areas/esign/esign.module';
import { webhooksModule } from './areas/webhooks/webhooks.module';
import { liveModule } from './areas/live/live.module';
import { eventsModule } from './areas/events/events.module';
import { ENVELOPE_SCHEMAS } from './contract';
import { gatewaySchema, gatewaySchemaFileText as gatewaySchemaText } from './gateway/gateway-schema';
import { gatewayRecords, gatewayResolvers, type GatewayRecords } from './gateway/gateway-resolvers';
import {
  federatedSchema,
  subgraphSchemaFileText as subgraphFileText,
  type EntityReferences,
} from './graphql/federation';
import { createLoaders, type Loaders, type LoaderSource } from './graphql/loaders';
import type { ResolverClassOf } from './graphql/resolver-instances';
import { buildGraphqlSchema, printSchemaFile } from './graphql/schema';
import type { PageCache } from './caching/page-cache';
import type { ContractRoute } from './rest/contract-routes';
import type { V1Scope } from './rest/v1';
import type { ResourceWatch } from './live/live.ports';
import type { ListingSource } from './store/listings';
import type { Database, StoreTables } from './store/schema';
import type { Db } from './store/database';
import type { DatasetPlan } from './store/dataset/import.plan';
import { DomainEventBus, type EventDeclaration } from './kernel/domain-events';
import { WEBHOOK_EVENT_TYPE_COUNT } from './areas/webhooks/webhooks.types';

/**
 * Every area of the service, each its module (src/areas/<area>/<area>.module.ts): the one list a
 * new area's module is added to (its service is wired in src/services.ts). The central lists below are derived from it, in its order: the /v1 routes
 * (the order of /v1/openapi.json's paths), the contract's shared schemas, the GraphQL resolver
 * classes; and the services the transports are handed are what the modules' routes and resolvers
 * name.
 */
export const AREA_MODULES = [
  facilitiesModule,
  flippersModule,
  rateAppliedActionsModule,
  ledgersModule,
  notesModule,
  documentsModule,
  moveInsModule,
  invoiceableItemsModule,
  rateChangesModule,
  paymentsModule,
  esignModule,
  tenantsModule,
  outboxModule,
  webhooksModule,
  liveModule,
  eventsModule,
] as const satisfies readonly AreaModule[];

type AreaModules = (typeof AREA_MODULES)[number];

/**
 * The services the contract's handlers call, all together: what each area's routes name (their
 * `RouteServices`), and the kept pages' cache.
 */
export type ContractServices = RouteServicesOf<AreaModules> & { readonly pages: PageCache };

/**
 * The domain services the schema's resolvers call, all together: what each resolver class names
 * (its `ResolverServices`).
 */
export type SchemaServices = ResolverServicesOf<AreaModules>;

/** The services the GraphQL loaders read: what each area's loaders name. */
export type LoaderServices = LoaderServicesOf<AreaModules>;

/** Each area's loaders are declared in `Loaders` (its `<area>.loaders.ts`) and made by its module: the same. */
const _loadersAreTheModules: [Loaders, LoadersOf<AreaModules>] extends [LoadersOf<AreaModules>, Loaders]
  ? true
  : false = true;

/** The modules, each route and resolver made with the services derived above (checked here). */
const MODULES: readonly AreaModuleOf<ContractServices, SchemaServices, LoaderServices>[] = AREA_MODULES;

/** Each area's tables are declared in the store's `Database` (its `<area>.tables.ts`) and handed in by its module: the same. */
const _databaseIsTheModules: [Database, StoreTables & TablesOfModules<AreaModules>] extends [
  StoreTables & TablesOfModules<AreaModules>,
  Database,
]
  ? true
  : false = true;

/**
 * The modules in the order their events stand in the webhooks' catalogue (the order an endpoint's
 * event types are listed and refusals name them in, which is the one they had when webhooks
 * listed them itself): the list's, but payments, notes, e-sign, documents, then move-ins.
 */
const CATALOGUE_MODULES: readonly AreaModule[] = [
  paymentsModule,
  notesModule,
  esignModule,
  documentsModule,
  moveInsModule,
];
const EVENT_MODULES: readonly AreaModule[] = [
  ...CATALOGUE_MODULES,
  ...MODULES.filter((module) => !CATALOGUE_MODULES.includes(module)),
];

/** Every event an area reports, in the catalogue's order (each area's `<area>.events.ts`). */
export const DOMAIN_EVENTS: readonly EventDeclaration[] = EVENT_MODULES.flatMap(
  (module) => module.events ?? [],
);

/** Every event a webhook endpoint can ask for: the events declared for webhooks, in the catalogue's order. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = DOMAIN_EVENTS.filter(
  (event) => event.audience === 'webhooks',
).map((event) => event.type);

if (WEBHOOK_EVENT_TYPES.length !== WEBHOOK_EVENT_TYPE_COUNT) {
  throw new Error(
    `the webhooks' catalogue holds ${WEBHOOK_EVENT_TYPES.length} event types, WEBHOOK_EVENT_TYPE_COUNT says ${WEBHOOK_EVENT_TYPE_COUNT}`,
  );
}

/**
 * The events' port over the store: each area's listeners (`AreaModule.listeners`) subscribed, in
 * the modules' order, to the types declared for what they hear. Repositories publish through it
 * within the transaction of the change; `afterCommit` adds who is told once it committed.
 */
export function domainEventBus(): DomainEventBus<Db> {
  const bus = new DomainEventBus<Db>();
  const subscriptions = MODULES.flatMap((module) => module.listeners ?? []);
  // Listeners of every event (the live journal) first, then those of an audience.
  for (const { hears, listen } of [
    ...subscriptions.filter((subscription) => subscription.hears === 'every'),
    ...subscriptions.filter((subscription) => subscription.hears !== 'every'),
  ]) {
    {
      bus.subscribe(
        hears === 'every'
          ? 'every'
          : DOMAIN_EVENTS.filter((event) => event.audience === hears).map((event) => event.type),
        listen,
      );
    }
  }
  return bus;
}

/** Every /v1 path of the contract (a known path with another method answers 405: see KnownRoutes). */
export const CONTRACT_ROUTES: readonly ContractRoute<ContractServices>[] = MODULES.flatMap(
  (module) => module.routes ?? [],
);

/** The scopes of /v1 (its routes under a path parameter, and their hooks: see V1Scope), every area's. */
export const V1_SCOPES: readonly V1Scope<ContractServices>[] = MODULES.flatMap(
  (module) => module.scopes ?? [],
);

/**
 * The modules in the order their records stand among /v1/openapi.json's components: the list's,
 * but for the payments module, whose record the published document has ahead of the rate
 * changes' (its bytes are kept).
 */
const RECORD_MODULES: readonly AreaModule[] = MODULES.flatMap((module) =>
  module === rateChangesModule
    ? []
    : module === paymentsModule
      ? [paymentsModule, rateChangesModule]
      : [module],
);

/** Every shared schema of /v1/openapi.json, a component each (registered by `$id`). */
export const SHARED_SCHEMAS = [
  ...ENVELOPE_SCHEMAS,
  ...RECORD_MODULES.flatMap((module) => module.schemas ?? []),
];

/**
 * Every answer kept between requests, by name, with the scope it is checked against: each area's
 * (its `<area>.kept.ts`), named by its REST routes (route option `kept`) and GraphQL fields (`@Kept`).
 */
export const KEPT_LISTS = Object.fromEntries(
  MODULES.flatMap((module) => Object.entries(module.kept ?? {})),
) as KeptListsOf<AreaModules>;

/**
 * The modules in the order a dataset import writes their records, a record's references first:
 * companies and facilities, what a facility holds, then what refers to those (a rate change names
 * its facility, tenant and unit). A module not named here writes after them, in the list's order.
 */
const WRITE_ORDER: readonly AreaModule[] = [
  facilitiesModule,
  flippersModule,
  tenantsModule,
  ledgersModule,
  rateAppliedActionsModule,
  documentsModule,
  invoiceableItemsModule,
  paymentsModule,
  rateChangesModule,
];

/** Every area's part of a dataset import's writes (`AreaModule.datasetPlan`), in the order of the writes. */
export const DATASET_PLANS: readonly DatasetPlan[] = [
  ...WRITE_ORDER,
  ...MODULES.filter((module) => !WRITE_ORDER.includes(module)),
].flatMap((module) => (module.datasetPlan ? [module.datasetPlan] : []));

/** Every table whose rows keep their listing, each as its area writes it, in the list's order. */
export const LISTING_SOURCES: readonly ListingSource[] = MODULES.flatMap((module) =>
  module.listings ? [module.listings] : [],
);

/** The version of each table's listings this release writes (test/cli/listings.test.ts holds them). */
export const LISTING_VERSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  LISTING_SOURCES.map((source) => [source.table, source.version]),
);

/** A resolver class of the schema: made with the services it uses, or with none. */
export type ResolverClass = ResolverClassOf<SchemaServices>;

/** Every resolver class of the schema. */
export const RESOLVERS: readonly ResolverClass[] = MODULES.flatMap((module) => module.resolvers ?? []);

let built: GraphQLSchema | undefined;

/**
 * The schema's shape, built once per process from the decorated classes: for printing it and
 * validating documents against it. Its resolvers have no services: an app serves `servedSchema`.
 */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildGraphqlSchema(RESOLVERS);
  return built;
}

/** The committed `schema.graphql` text: sorted, so it changes only when the schema does. */
export function schemaFileText(schema: GraphQLSchema = graphqlSchema()): string {
  return printSchemaFile(schema);
}

let gatewayReads: GatewayRecords | undefined;

/**
 * Gateway mode's schema over the service's own, reading the contract's records the areas declare
 * (`SHARED_SCHEMAS`, each by its `$id`); its subscription watches the upstream through `pollers`
 * (without them it serves none: for printing the schema and checking documents).
 */
export function gatewayGraphqlSchema(pollers?: ResourceWatch): GraphQLSchema {
  gatewayReads ??= gatewayRecords(SHARED_SCHEMAS);
  return gatewaySchema(graphqlSchema(), gatewayReads, gatewayResolvers(gatewayReads, pollers));
}

/** The committed `schema.gateway.graphql` text (resolvers do not change what is printed). */
export function gatewaySchemaFileText(schema: GraphQLSchema = gatewayGraphqlSchema()): string {
  return gatewaySchemaText(schema);
}

/** Every area's Federation entities, by type name (docs/graphql.md#federation). */
export const ENTITIES: EntityReferences = Object.fromEntries(
  MODULES.flatMap((module) => Object.entries(module.entities ?? {})),
);

let subgraph: GraphQLSchema | undefined;

/** The schema's shape with the Federation subgraph fields (GRAPHQL_FEDERATION=on), for validating documents. */
export function subgraphGraphqlSchema(): GraphQLSchema {
  subgraph ??= federatedSchema(graphqlSchema(), ENTITIES);
  return subgraph;
}

/** The committed `schema.subgraph.graphql` text: the subgraph's SDL, `_service { sdl }`. */
export function subgraphSchemaFileText(schema: GraphQLSchema = graphqlSchema()): string {
  return subgraphFileText(schema, ENTITIES);
}

/** Every area's loaders, in the list's order. */
const LOADER_FACTORIES = MODULES.flatMap((module) => (module.loaders ? [module.loaders] : []));

/** Where a request's GraphQL loaders come from: every area's, made with `services` for its caller. */
export function loaderSource(services: LoaderServices): LoaderSource {
  return (caller) => createLoaders(LOADER_FACTORIES, services, caller, (loaders) => loaders.facilities);
}
