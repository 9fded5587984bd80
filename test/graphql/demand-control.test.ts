import type { FastifyInstance } from 'fastify';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { costDirectiveProblems } from '../../src/graphql/cost-directives';
import { estimateCost } from '../../src/graphql/demand-control';
import { schemaFileText } from '../../src/modules';
import { buildItem } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { codesOf, postGraphql } from './graphql-client';

const DIRECTIVES = `
  directive @cost(weight: String!) on FIELD_DEFINITION | OBJECT
  directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
`;

/** Items paginated by `perPage` (at most 20), pages of `entries`, tags (3) that cost 1 each. */
const schema = buildSchema(`
  ${DIRECTIVES}
  type Item {
    name: String
    tags: [String] @listSize(assumedSize: 3) @cost(weight: "1")
    children(perPage: Int): [Item!]! @listSize(assumedSize: 20, slicingArguments: ["perPage"])
    parent: Item
  }
  type Page {
    entries: [Item!]!
    total: Int
  }
  type Query {
    item: Item
    items(perPage: Int): [Item] @listSize(assumedSize: 20, slicingArguments: ["perPage"])
    page(perPage: Int): Page! @listSize(assumedSize: 20, slicingArguments: ["perPage"], sizedFields: ["entries"]) @cost(weight: "0")
    loose: [Item]
  }
`);

function costOf(query: string, variables: Record<string, unknown> = {}): number {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  )!;
  return estimateCost(schema, document, operation, variables);
}

describe('cost estimate (IBM cost directives)', () => {
  it('prices lists by @listSize, lowered by a slicing argument, literal or variable', () => {
    expect(costOf('{ items { name } }')).toBe(20);
    expect(costOf('{ items { children { name } } }')).toBe(20 * (1 + 20));
    expect(costOf('{ items(perPage: 2) { children(perPage: 3) { name } } }')).toBe(2 * (1 + 3));
    expect(costOf('query ($n: Int) { items(perPage: $n) { name } }', { n: 7 })).toBe(7);
    // Above assumedSize the service reads the largest page, and so does the estimate.
    expect(costOf('{ items(perPage: 1000) { tags } }')).toBe(20 * (1 + 3 * 1));
    expect(costOf('query ($n: Int) { items(perPage: $n) { name } }')).toBe(20);
    // A list that declares nothing counts 50.
    expect(costOf('{ loose { name } }')).toBe(50);
  });

  it('gives a page field size to its sizedFields, the page itself weighing its @cost', () => {
    expect(costOf('{ page { entries { name } total } }')).toBe(20);
    expect(costOf('{ page(perPage: 4) { entries { parent { name } } } }')).toBe(4 * (1 + 1));
    expect(
      costOf('query ($n: Int) { page(perPage: $n) { ...E } } fragment E on Page { entries { name } }', {
        n: 9,
      }),
    ).toBe(9);
  });

  it('stays linear on a fragment bomb (each level doubles the fields)', () => {
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Item { parent { ...F${i + 1} } parent { ...F${i + 1} } }`,
    ).join('\n');
    expect(costOf(`{ item { ...F0 } } ${fragments} fragment F${levels} on Item { name }`)).toBeGreaterThan(
      2 ** 39,
    );
  });

  it('refuses a cost directive on a field that cannot carry it, naming the field', () => {
    const bad = buildSchema(`
      ${DIRECTIVES}
      type Thing @cost(weight: "heavy") { name: String }
      type Query {
        one: Thing @listSize(assumedSize: 3)
        many(first: String): [Thing] @listSize(slicingArguments: ["first", "count"]) @cost(weight: "-1")
        page: Thing @listSize(sizedFields: ["name", "nope"])
      }
    `);
    expect(costDirectiveProblems(bad)).toEqual([
      'Thing: @cost(weight: "heavy") is not a number of 0 or more',
      'Query.one: @listSize on a field that answers no list (and names no sizedFields)',
      'Query.many: @cost(weight: "-1") is not a number of 0 or more',
      'Query.many: @listSize slicing argument "first" is not an Int',
      'Query.many: @listSize slicing argument "count" is not an argument of the field',
      'Query.page: @listSize sized field "name" is not a list',
      'Query.page: @listSize sized field "nope" is not a field of Thing',
    ]);
  });

  it("emits the directives into the service's schema", () => {
    const text = schemaFileText();
    expect(text).toContain('directive @cost(weight: String!) on FIELD_DEFINITION | OBJECT');
    expect(text).toMatch(
      /\): InvoiceableItemPage! @listSize\(assumedSize: 100, slicingArguments: \["perPage"\], requireOneSlicingArgument: false, sizedFields: \["entries"\]\) @cost\(weight: "0"\)/,
    );
  });
});

const ITEMS = `query Items($facilityId: UUID!, $perPage: Int) {
  facility(id: $facilityId) { invoiceableItems(list: RETAIL, perPage: $perPage) { entries { id } } }
}`;

interface ItemsAnswer {
  facility: { invoiceableItems: { entries: Array<{ id: string }> } };
}

describeEachDialect('demand control over HTTP', (dialect) => {
  let t: TestApp;
  let strict: FastifyInstance;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility_id = t.world.facility.id;
    await t.load({
      invoiceable_items: Array.from({ length: 30 }, (_, i) =>
        buildItem({ facility_id, description: `Box ${i}` }),
      ),
    });
    strict = (await createInstance(t.db.store, { env: { GRAPHQL_MAX_COST: '10' } })).app;
    await strict.ready();
  });
  afterAll(async () => {
    await strict.close();
    await t.close();
  });

  const ask = (app: FastifyInstance, perPage: number | undefined, extensions?: unknown) =>
    postGraphql<ItemsAnswer>(
      app,
      { query: ITEMS, variables: { facilityId: t.world.facility.id, perPage }, extensions },
      { bearer: t.world.client.bearer_token },
    );

  it('reports the estimate when asked, and it follows perPage as the answer does', async () => {
    for (const perPage of [1, 5, 20]) {
      const res = await ask(t.app, perPage, { cost: true });
      const entries = res.data!.facility.invoiceableItems.entries;
      expect(entries).toHaveLength(perPage);
      const body = res.raw.json() as { extensions: { cost: { estimated: number; maximum: number } } };
      // The facility counts 1, each entry 1: the estimate grows with the work done.
      expect(body.extensions.cost).toEqual({ estimated: 1 + entries.length, maximum: 20000 });
    }
    // Not asked, not reported.
    expect((await ask(t.app, 5)).raw.json()).not.toHaveProperty('extensions');
  });

  it('refuses an operation over GRAPHQL_MAX_COST before it runs, with the estimate', async () => {
    const refused = await ask(strict, 20);
    expect(refused.status).toBe(400);
    expect(refused.data).toBeUndefined();
    expect(codesOf(refused)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(refused.errors![0].extensions).toMatchObject({ cost: { estimated: 21, maximum: 10 } });
    expect(refused.errors![0].message).toMatch(
      /^Operation "Items" may return about 21 objects .* the limit is 10\./,
    );
    // Without perPage the largest page (100) counts.
    expect(codesOf(await ask(strict, undefined))).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    const within = await ask(strict, 9);
    expect(within.errors).toBeUndefined();
    expect(within.data!.facility.invoiceableItems.entries).toHaveLength(9);
  });
});
