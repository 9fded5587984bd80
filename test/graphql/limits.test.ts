import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  validate,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { graphqlSchema } from '../../src/graphql/schema';
import { queryLimitsRule, type QueryLimits } from '../../src/graphql/limits';

const limits: QueryLimits = { maxDepth: 4, maxAliases: 2, maxCost: 100 };

/** A schema where items are paginated (`perPage`, at most 20) and tags list at most 3. */
const Item: GraphQLObjectType = new GraphQLObjectType({
  name: 'Item',
  fields: (): GraphQLFieldConfigMap<unknown, unknown> => ({
    name: { type: GraphQLString },
    tags: { type: new GraphQLList(GraphQLString), extensions: { cost: { complexity: 1, listSize: 3 } } },
    children: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Item))),
      args: { perPage: { type: GraphQLInt } },
      extensions: { cost: { listSize: 20, sizeArgument: 'perPage' } },
    },
    parent: { type: Item },
  }),
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      item: { type: Item },
      items: {
        type: new GraphQLList(Item),
        args: { perPage: { type: GraphQLInt } },
        extensions: { cost: { listSize: 20, sizeArgument: 'perPage' } },
      },
    },
  }),
});

function limitErrors(query: string, s: GraphQLSchema = schema) {
  return validate(s, parse(query), [queryLimitsRule(limits)]).map((e) => e.extensions.queryLimit);
}

describe('query limits rule', () => {
  it('accepts an operation within every limit', () => {
    expect(limitErrors('{ item { name parent { name } } }')).toEqual([]);
  });

  it('measures depth through fragments and inline fragments', () => {
    expect(
      limitErrors('{ item { ...F } } fragment F on Item { parent { ... on Item { parent { name } } } }'),
    ).toEqual([]);
    expect(
      limitErrors(
        '{ item { ...F } } fragment F on Item { parent { ... on Item { parent { parent { name } } } } }',
      ),
    ).toEqual([{ name: 'depth', maximum: 4, actual: 5 }]);
  });

  it('counts aliases once per spread of their fragment', () => {
    expect(limitErrors('{ item { ...F ...F } } fragment F on Item { a: name }')).toEqual([]);
    expect(limitErrors('{ x: item { ...F } y: item { ...F } } fragment F on Item { a: name }')).toEqual([
      { name: 'aliases', maximum: 2, actual: 4 },
    ]);
  });

  it('prices lists by their declared size, lowered by a literal page size', () => {
    expect(limitErrors('{ items { name } }')).toEqual([]); // 20
    expect(limitErrors('{ items { children { name } } }')).toEqual([
      { name: 'cost', maximum: 100, actual: 420 },
    ]);
    expect(limitErrors('{ items(perPage: 2) { children(perPage: 3) { name } } }')).toEqual([]); // 2 * (1 + 3)
    expect(limitErrors('{ items(perPage: 1000) { tags } }')).toEqual([]); // 20 * (1 + 3)
    expect(limitErrors('query ($n: Int) { items(perPage: $n) { children { name } } }')).toHaveLength(1);
  });

  it('stays linear on a fragment bomb (each level doubles the fields)', () => {
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Item { parent { ...F${i + 1} } parent { ...F${i + 1} } }`,
    ).join('\n');
    const query = `{ item { ...F0 } } ${fragments} fragment F${levels} on Item { name }`;
    const errors = limitErrors(query);
    expect(errors.map((e) => (e as { name: string }).name)).toEqual(['depth', 'cost']);
  });

  it('survives fragment cycles and unknown fields, leaving them to graphql-js', () => {
    const errors = validate(schema, parse('{ item { ...A } } fragment A on Item { parent { ...A } nope }'), [
      queryLimitsRule(limits),
    ]);
    expect(errors).toEqual([]);
  });

  it('leaves introspection out of depth and cost', () => {
    const deep = '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }';
    expect(limitErrors(deep, graphqlSchema())).toEqual([]);
  });
});
