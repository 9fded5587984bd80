import type { GraphQLResolveInfo, GraphQLSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';

/** A resolver class of a schema: made with the services `S` it uses (a class that takes none fits any `S`). */
export type ResolverClassOf<S> = new (services: S) => object;

/** The resolvers each served schema was made with. */
const instancesOfSchemas = new WeakMap<GraphQLSchema, ResolverInstances<never>>();

/** TypeGraphQL's container for one served schema: each resolver class made once, over the services. */
export class ResolverInstances<S> implements ContainerType {
  private readonly instances: ReadonlyMap<unknown, object>;

  constructor(resolvers: readonly ResolverClassOf<S>[], services: S) {
    this.instances = new Map(resolvers.map((type) => [type, new type(services)]));
  }

  get(type: { name: string }): object {
    const instance = this.instances.get(type);
    if (!instance) throw new Error(`resolver ${type.name} is not one of this schema's`);
    return instance;
  }

  /** The schema built with these instances, noted for `resolverOf`. */
  serve(schema: GraphQLSchema): GraphQLSchema {
    instancesOfSchemas.set(schema, this);
    return schema;
  }
}

/** The container of a schema built for its shape alone (printing, validating): nothing in it runs. */
export const NO_INSTANCES: ContainerType = {
  get: (type: { name: string }) => {
    throw new Error(`${type.name} ran in a schema built without services; an app serves servedSchema(...)`);
  },
};

/**
 * The instance of a resolver class the executing schema was made with. TypeGraphQL calls a
 * Subscription's `subscribe` without one; it reaches its resolver's services through this.
 */
export function resolverOf<T extends object>(info: GraphQLResolveInfo, type: new (...args: never[]) => T): T {
  const instances = instancesOfSchemas.get(info.schema);
  if (!instances) throw new Error(`${type.name} ran in a schema built without services`);
  return instances.get(type) as T;
}
