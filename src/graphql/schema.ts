import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { RESOLVERS } from './resolvers';

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

/** The schema, built once per process from the decorated classes (it holds no per-request state). */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({ resolvers: [...RESOLVERS], validate: false, pubSub: NO_PUBSUB });
  return built;
}

const HEADER =
  '# Emitted from the TypeGraphQL classes in src/graphql by `npm run schema:emit`; do not edit.\n\n';

/** The committed `schema.graphql` text: sorted, so it changes only when the schema does. */
export function schemaFileText(schema: GraphQLSchema = graphqlSchema()): string {
  return `${HEADER}${printSchema(lexicographicSortSchema(schema))}\n`;
}
