import 'reflect-metadata';
import { lexicographicSortSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchemaSync, type ContainerType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { assertCostDirectives, COST_DIRECTIVES } from './cost-directives';
import { NO_INSTANCES, ResolverInstances } from './resolver-instances';
import { RESOLVERS, type ResolverClass, type SchemaServices } from './resolvers';

let built: GraphQLSchema | undefined;

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
 * The schema's shape, built once per process from the decorated classes: for printing it and
 * validating documents against it. Its resolvers have no services: an app serves `servedSchema`.
 */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildGraphqlSchema(RESOLVERS);
  return built;
}

/** The schema an app serves: each resolver class made once, with the services it names. */
export function servedSchema(
  services: SchemaServices,
  resolvers: readonly ResolverClass[] = RESOLVERS,
): GraphQLSchema {
  const instances = new ResolverInstances(resolvers, services);
  return instances.serve(buildGraphqlSchema(resolvers, instances));
}

/** A schema of these resolver classes, built as the service's own is (its directives checked). */
export function buildGraphqlSchema(
  resolvers: readonly ResolverClass[],
  container: ContainerType = NO_INSTANCES,
): GraphQLSchema {
  return assertCostDirectives(
    buildSchemaSync({
      resolvers: [...resolvers] as NonEmptyArray<ResolverClass>,
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

/** The committed `schema.graphql` text: sorted, so it changes only when the schema does. */
export function schemaFileText(schema: GraphQLSchema = graphqlSchema()): string {
  return `${HEADER}${printWithDirectives(schema)}\n`;
}
