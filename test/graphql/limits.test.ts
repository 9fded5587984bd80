import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql';
import { graphqlSchema } from '../../src/modules';
import { queryLimitsRule, type QueryLimits } from '../../src/graphql/limits';

const limits: QueryLimits = { maxDepth: 4, maxAliases: 2 };

const schema = buildSchema(`
  type Item {
    name: String
    parent: Item
  }
  type Query {
    item: Item
  }
`);

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

  it('stays linear on a fragment bomb (each level doubles the fields)', () => {
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Item { parent { ...F${i + 1} } parent { ...F${i + 1} } }`,
    ).join('\n');
    const query = `{ item { ...F0 } } ${fragments} fragment F${levels} on Item { name }`;
    const errors = limitErrors(query);
    expect(errors.map((e) => (e as { name: string }).name)).toEqual(['depth']);
  });

  it('survives fragment cycles and unknown fields, leaving them to graphql-js', () => {
    const errors = validate(schema, parse('{ item { ...A } } fragment A on Item { parent { ...A } nope }'), [
      queryLimitsRule(limits),
    ]);
    expect(errors).toEqual([]);
  });

  it('leaves introspection out of depth', () => {
    const deep = '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }';
    expect(limitErrors(deep, graphqlSchema())).toEqual([]);
  });
});
