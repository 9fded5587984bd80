import 'reflect-metadata';
import { lexicographicSortSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchemaSync, type ContainerType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { assertCostDirectives, COST_DIRECTIVES } from './cost-directives';
import { NO_INSTANCES, ResolverInstances, type ResolverClassOf } from './resolver-instances';

/**
 * TypeGraphQL asks for a PubSub once there is a Subscription; every subscription here names its own
 * `subscribe` (the live hub, src/live), so nothing may go through this one.
 */
const NO_PUBSUB: PubSub = {
  publish: () => {
    throw new Error('subscriptions read the live hub, not a PubSub');
  },
  subscribe: () => {
    throw new Error('subscriptions read the live hub, not a PubSub');
  },
};

/**
 * The schema an app serves: each resolver class made once, with the services it names; `extend`
 * adds to it (the Federation subgraph's fields) before it is served.
 */
export function servedSchema<S>(
  services: S,
  resolvers: readonly ResolverClassOf<S>[],
  extend: (schema: GraphQLSchema) => GraphQLSchema = (schema) => schema,
): GraphQLSchema {
  const instances = new ResolverInstances(resolvers, services);
  return instances.serve(extend(buildGraphqlSchema(resolvers, instances)));
}

/** A schema of these resolver classes, built as the service's own is (its directives checked). */
export function buildGraphqlSchema(
  resolvers: readonly ResolverClassOf<never>[],
  container: ContainerType = NO_INSTANCES,
): GraphQLSchema {
  return assertCostDirectives(
    buildSchemaSync({
      resolvers: [...resolvers] as NonEmptyArray<ResolverClassOf<never>>,
      validate: false,
      directives: [...specifiedDirectives, ...COST_DIRECTIVES],
      pubSub: NO_PUBSUB,
      container,
    }),
  );
}

const HEADER =
  '# Emitted from the TypeGraphQL classes in src/graphql by `npm run schema:emit`; do not edit.\n\n';

/** The schema's SDL with the directives its fields carry (`@cost`, `@listSize`), sorted. */
export function printWithDirectives(schema: GraphQLSchema): string {
  return printSchemaWithDirectives(lexicographicSortSchema(schema));
}

/** The committed `schema.graphql` text of a schema: sorted, so it changes only when the schema does. */
export function printSchemaFile(schema: GraphQLSchema): string {
  return `${HEADER}${printWithDirectives(schema)}\n`;
}
