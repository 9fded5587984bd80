import {
  GraphQLError,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  valueFromASTUntyped,
  visit,
  type ConstDirectiveNode,
  type GraphQLResolveInfo,
} from 'graphql';
import { isUuid, normalizeId } from '../kernel/ids';
import type { GraphqlContext } from './context';
import { printWithDirectives } from './schema';

/**
 * The record of one entity by its id, as a query by id answers it (the object its type's field
 * resolvers read), through the request's loaders: null when unknown or of another company.
 */
export type EntityReference = (id: string, context: GraphqlContext) => Promise<object | null>;

/** Entities by type name: an object type, or an interface whose implementations are entities too. */
export type EntityReferences = Readonly<Record<string, EntityReference>>;

/** The Federation version the subgraph links to: 2.9 defines `@cost` and `@listSize`. */
export const FEDERATION_SPEC = 'https://specs.apollo.dev/federation/v2.9';

/** The key every entity declares: its id alone. */
export const ENTITY_KEY = 'id';

/** The federation directives the subgraph's SDL uses, imported by its `@link`. */
const IMPORTED = ['@key', '@cost', '@listSize'] as const;

/**
 * Every keyed type name with the reference that resolves it: the entities given, and each object
 * type implementing an entity interface (resolved through the interface's reference).
 */
function keyedTypes(
  schema: GraphQLSchema,
  entities: EntityReferences,
): Map<string, { reference: EntityReference; through: string | null }> {
  const keyed = new Map<string, { reference: EntityReference; through: string | null }>();
  for (const [name, reference] of Object.entries(entities)) {
    const type = schema.getType(name);
    if (isObjectType(type)) keyed.set(name, { reference, through: null });
    else if (isInterfaceType(type)) {
      keyed.set(name, { reference, through: name });
      for (const object of schema.getImplementations(type).objects)
        keyed.set(object.name, { reference, through: name });
    } else throw new Error(`entity ${name} is not an object type or interface of the schema`);
  }
  return keyed;
}

/**
 * The subgraph's SDL (`_service { sdl }`, and `schema.subgraph.graphql`): the schema as
 * `schema.graphql` prints it, linked to Federation 2.9, with `@key(fields: "id")` on each entity
 * and the cost directives in Federation's definitions (`@cost(weight: Int!)`; our own declares
 * the IBM specification's `String!`, and every weight here is a whole number).
 */
export function subgraphSdl(schema: GraphQLSchema, entities: EntityReferences): string {
  const keyed = keyedTypes(schema, entities);
  const key: ConstDirectiveNode = {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: 'key' },
    arguments: [
      {
        kind: Kind.ARGUMENT,
        name: { kind: Kind.NAME, value: 'fields' },
        value: { kind: Kind.STRING, value: ENTITY_KEY },
      },
    ],
  };
  const document = visit(parse(printWithDirectives(schema)), {
    // Federation defines them (imported by the @link below).
    DirectiveDefinition: (node) =>
      node.name.value === 'cost' || node.name.value === 'listSize' ? null : node,
    ObjectTypeDefinition: (node) =>
      keyed.has(node.name.value) ? { ...node, directives: [...(node.directives ?? []), key] } : node,
    InterfaceTypeDefinition: (node) =>
      keyed.has(node.name.value) ? { ...node, directives: [...(node.directives ?? []), key] } : node,
    Directive: (node) => {
      if (node.name.value !== 'cost') return node;
      return {
        ...node,
        arguments: node.arguments?.map((argument) => {
          if (argument.name.value !== 'weight' || argument.value.kind !== Kind.STRING) return argument;
          const weight = Number(argument.value.value);
          if (!Number.isInteger(weight))
            throw new Error(`@cost(weight: "${argument.value.value}") is no whole number (Federation's Int)`);
          return { ...argument, value: { kind: Kind.INT, value: String(weight) } };
        }),
      };
    },
  });
  const link = `extend schema @link(url: "${FEDERATION_SPEC}", import: [${IMPORTED.map((d) => JSON.stringify(d)).join(', ')}])`;
  return `${link}\n\n${print(document)}\n`;
}

const HEADER =
  '# The Federation v2 subgraph SDL (`_service { sdl }` with GRAPHQL_FEDERATION=on): schema.graphql with\n' +
  '# @link and @key. Emitted by `npm run schema:emit`; do not edit.\n\n';

/** The committed `schema.subgraph.graphql` text. */
export function subgraphSchemaFileText(schema: GraphQLSchema, entities: EntityReferences): string {
  return `${HEADER}${subgraphSdl(schema, entities)}`;
}

/** Representations' values: JSON objects, passed as they are. */
const anyScalar = new GraphQLScalarType({
  name: '_Any',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => valueFromASTUntyped(node),
});

const serviceType = new GraphQLObjectType({
  name: '_Service',
  fields: { sdl: { type: new GraphQLNonNull(GraphQLString) } },
});

interface Representation {
  __typename: string;
  id: string;
}

function representation(value: unknown): Representation {
  const asked = value as Partial<Representation> | null;
  if (asked === null || typeof asked !== 'object' || typeof asked.__typename !== 'string')
    throw new GraphQLError('a representation is an object with __typename and id', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  if (typeof asked.id !== 'string')
    throw new GraphQLError(`a ${asked.__typename} representation names its id (its only key)`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  return asked as Representation;
}

/**
 * The schema with the Federation subgraph fields: `_service { sdl }` and
 * `_entities(representations:)`, each entity resolved by its reference through the request's
 * loaders (one statement per type for a whole list), under the caller's company. The schema's
 * own types are the same objects, so their resolvers and directives are unchanged.
 */
export function federatedSchema(schema: GraphQLSchema, entities: EntityReferences): GraphQLSchema {
  const keyed = keyedTypes(schema, entities);
  const sdl = subgraphSdl(schema, entities);
  // The concrete type each resolved record answers as (a record object is the loader's own).
  const typeOf = new WeakMap<object, string>();
  const entityType = new GraphQLUnionType({
    name: '_Entity',
    types: [...keyed.keys()].flatMap((name) => {
      const type = schema.getType(name);
      return isObjectType(type) ? [type] : [];
    }),
    resolveType: (value: object) => typeOf.get(value),
  });

  async function resolveOne(value: unknown, context: GraphqlContext, info: GraphQLResolveInfo) {
    const { __typename: asked, id } = representation(value);
    const entity = keyed.get(asked);
    if (!entity)
      throw new GraphQLError(`${asked} is not an entity of this subgraph`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    // Every id here is a UUID: another string names no record.
    if (!isUuid(id)) return null;
    const record = await entity.reference(normalizeId(id), context);
    if (record === null) return null;
    let concrete = asked;
    if (entity.through !== null) {
      const abstract = schema.getType(entity.through);
      const resolved = isInterfaceType(abstract)
        ? await abstract.resolveType?.(record, context, info, abstract)
        : undefined;
      if (typeof resolved !== 'string') throw new Error(`no type for a ${entity.through} record`);
      // Asked as FeeItem, a service item's id is no FeeItem.
      if (asked !== entity.through && resolved !== asked) return null;
      concrete = resolved;
    }
    typeOf.set(record, concrete);
    return record;
  }

  const query = schema.getQueryType();
  if (!query) throw new Error('a subgraph needs a Query type');
  const queryConfig = query.toConfig();
  const federatedQuery = new GraphQLObjectType({
    ...queryConfig,
    fields: {
      ...queryConfig.fields,
      _entities: {
        type: new GraphQLNonNull(new GraphQLList(entityType)),
        description: 'Federation: the entities of these representations (null for one not found).',
        args: {
          representations: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(anyScalar))) },
        },
        // Resolved together, so the execution guard sizes the list by each entry's type; a
        // representation that fails is an error at its place in the list.
        resolve: (_root, args: { representations: unknown[] }, context: GraphqlContext, info) =>
          Promise.all(
            args.representations.map((value) =>
              resolveOne(value, context, info).catch((error: unknown) => error),
            ),
          ),
      },
      _service: {
        type: new GraphQLNonNull(serviceType),
        description: "Federation: this subgraph's SDL, with its directives.",
        resolve: () => ({ sdl }),
      },
    },
  });
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query: federatedQuery,
    types: [...config.types.filter((type) => type !== query), anyScalar, serviceType, entityType],
  });
}

/** Whether a root field is Federation's entity lookup. */
export function isEntitiesField(name: string): boolean {
  return name === '_entities';
}
