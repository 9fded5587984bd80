import type { TSchema } from '@sinclair/typebox';
import { filterSchema, mapSchema, MapperKind, pruneSchema } from '@graphql-tools/utils';
import {
  getNamedType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  GraphQLUnionType,
  isInterfaceType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';
import type { GraphqlContext } from '../graphql/context';
import { printWithDirectives } from '../graphql/schema';
import { camelCase } from '../kernel/names';
import { gatewayResolvers, type GatewayRecords, type GatewayResolvers } from './gateway-resolvers';

export type { GatewayRecords, GatewayResolvers };

/** The fields gateway mode serves, by type; a type not named keeps every field. */
type Served = Map<string, Set<string>>;

/**
 * The fields the records' types (`GatewayRecords.types`) and the resolvers declare: a record's type
 * (and the types of its nested objects) keeps the fields its contract schema's view has, any type
 * the fields resolved on it.
 */
function servedFields(schema: GraphQLSchema, records: GatewayRecords, resolvers: GatewayResolvers): Served {
  const served: Served = new Map();
  const keep = (typeName: string) => {
    const fields = served.get(typeName) ?? new Set<string>();
    served.set(typeName, fields);
    return fields;
  };
  const view = (typeName: string, record: TSchema) => {
    const type = schema.getType(typeName);
    if (!isObjectType(type) && !isInterfaceType(type)) throw new Error(`${typeName}: not an object type`);
    const kept = keep(typeName);
    for (const [name, property] of Object.entries(record.properties as Record<string, TSchema>)) {
      const field = type.getFields()[camelCase(name)];
      if (!field) continue;
      kept.add(field.name);
      const nested: TSchema = property.type === 'array' ? (property.items as TSchema) : property;
      if (nested.properties) view(getNamedType(field.type).name, nested);
    }
  };
  for (const [typeName, record] of Object.entries(records.types)) view(typeName, record);
  for (const [typeName, own] of Object.entries(resolvers)) {
    for (const name of Object.keys(own)) if (!name.startsWith('__')) keep(typeName).add(name);
  }
  return served;
}

type FieldResolver = GraphQLFieldResolver<unknown, GraphqlContext>;

/** A member of a resolver map's entry, which graphql-tools types loosely. */
const memberOf = (entry: unknown, key: string): unknown =>
  typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[key] : undefined;

/**
 * A field's resolver and, for a subscription, where its events come from: a function, or
 * `{ resolve, subscribe }`, as graphql-tools maps resolvers.
 */
function resolverOf(resolvers: GatewayResolvers, typeName: string, fieldName: string) {
  const own = memberOf(resolvers[typeName], fieldName);
  if (typeof own === 'function') return { resolve: own as FieldResolver };
  const { resolve, subscribe } = (own ?? {}) as { resolve?: FieldResolver; subscribe?: FieldResolver };
  return { resolve, subscribe };
}

/**
 * The gateway's schema: the service's own (so a query the gateway answers is answered the same
 * way, with the same names and scalars, by the system of record), cut to what the contract's
 * `records` (handed in by the composition root) and the resolvers declare and pruned of the types
 * nothing reaches any more, with the gateway's resolvers in place of the service's (which read the
 * service's own database).
 */
export function gatewaySchema(
  source: GraphQLSchema,
  records: GatewayRecords,
  resolvers: GatewayResolvers = gatewayResolvers(records),
): GraphQLSchema {
  const served = servedFields(source, records, resolvers);
  const kept = (typeName: string, fieldName: string) => served.get(typeName)?.has(fieldName) ?? true;
  const cut = pruneSchema(
    filterSchema({
      schema: source,
      rootFieldFilter: kept,
      objectFieldFilter: kept,
      interfaceFieldFilter: kept,
    }),
  );
  const resolveType = (typeName: string) =>
    memberOf(resolvers[typeName], '__resolveType') as GraphQLTypeResolver<unknown, unknown> | undefined;
  return mapSchema(cut, {
    [MapperKind.OBJECT_TYPE]: (type) => new GraphQLObjectType({ ...type.toConfig(), isTypeOf: undefined }),
    [MapperKind.INTERFACE_TYPE]: (type) =>
      new GraphQLInterfaceType({ ...type.toConfig(), resolveType: resolveType(type.name) }),
    [MapperKind.UNION_TYPE]: (type) =>
      new GraphQLUnionType({ ...type.toConfig(), resolveType: resolveType(type.name) }),
    [MapperKind.COMPOSITE_FIELD]: (field, fieldName, typeName) => ({
      ...field,
      ...resolverOf(resolvers, typeName, fieldName),
      extensions: {},
    }),
  });
}

const HEADER =
  '# The gateway mode schema (UPSTREAM_URL set): the part of schema.graphql the /v1 contract can feed.\n' +
  '# Emitted by `npm run schema:emit`; do not edit.\n\n';

/** The committed `schema.gateway.graphql` text (resolvers do not change what is printed). */
export function gatewaySchemaFileText(schema: GraphQLSchema): string {
  return `${HEADER}${printWithDirectives(schema)}\n`;
}
