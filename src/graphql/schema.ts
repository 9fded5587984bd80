import 'reflect-metadata';
import { lexicographicSortSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchemaSync, type NonEmptyArray, type PubSub } from 'type-graphql';
import { assertCostDirectives, COST_DIRECTIVES } from './cost-directives';
import { RESOLVERS } from './resolvers';

let built: GraphQLSchema | undefined;

/** A TypeGraphQL resolver class. */
type ResolverClass = new (...args: never[]) => object;

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

/** The schema, built once per process from the decorated classes (it holds no per-request state). */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildGraphqlSchema(RESOLVERS);
  return built;
}

/** A schema of these resolver classes, built as the service's own is (its directives checked). */
export function buildGraphqlSchema(resolvers: readonly ResolverClass[]): GraphQLSchema {
  return assertCostDirectives(
    buildSchemaSync({
      resolvers: [...resolvers] as NonEmptyArray<ResolverClass>,
      validate: false,
      directives: [...specifiedDirectives, ...COST_DIRECTIVES],
      pubSub: NO_PUBSUB,
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
