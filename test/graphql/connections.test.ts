import { randomUUID } from 'node:crypto';
import type {
  InvoiceableItemList,
  InvoiceableItemsConnectionQuery,
  InvoiceableItemsConnectionQueryVariables,
  InvoiceableItemsQuery,
  InvoiceableItemsQueryVariables,
  RateChangeUpdatesConnectionQuery,
  RateChangeUpdatesConnectionQueryVariables,
  RateChangeUpdatesQuery,
  RateChangeUpdatesQueryVariables,
} from '../generated/graphql';
import { encodeCursor } from '../../src/kernel/connections';
import { buildFacility, buildItem, buildRateChange, buildTenant, buildUnit } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { codesOf, operation, postGraphql, run, type GraphqlResponse } from './graphql-client';

const ItemsConnection = operation<InvoiceableItemsConnectionQuery, InvoiceableItemsConnectionQueryVariables>(
  'connections.graphql',
  'InvoiceableItemsConnection',
);
const Items = operation<InvoiceableItemsQuery, InvoiceableItemsQueryVariables>(
  'invoiceable-items.graphql',
  'InvoiceableItems',
);
const UpdatesConnection = operation<
  RateChangeUpdatesConnectionQuery,
  RateChangeUpdatesConnectionQueryVariables
>('connections.graphql', 'RateChangeUpdatesConnection');
const Updates = operation<RateChangeUpdatesQuery, RateChangeUpdatesQueryVariables>(
  'rate-change-updates.graphql',
  'RateChangeUpdates',
);

const WIDE = { updatedAfter: '2026-01-01T00:00:00Z', updatedBefore: '2027-01-01T00:00:00Z' };

interface Walked {
  ids: string[];
  steps: number;
  totals: Set<number>;
}

type ConnectionOf = {
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: number;
};

/**
 * Walks a connection to its end, `size` at a time, forward (`first`/`after`) or backward
 * (`last`/`before`), calling `between` after each step; the ids in the order met.
 */
async function walk(
  step: (args: { first?: number; after?: string; last?: number; before?: string }) => Promise<ConnectionOf>,
  direction: 'forward' | 'backward',
  size: number,
  between: (stepNumber: number) => Promise<void> = async () => {},
): Promise<Walked> {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  for (let steps = 1; steps < 1000; steps++) {
    const connection = await step(
      direction === 'forward' ? { first: size, after: cursor } : { last: size, before: cursor },
    );
    totals.add(connection.totalCount);
    const met = connection.edges.map((edge) => edge.node.id);
    if (direction === 'forward') ids.push(...met);
    else ids.unshift(...met);
    const { pageInfo } = connection;
    expect(pageInfo.startCursor).toBe(connection.edges[0]?.cursor ?? null);
    expect(pageInfo.endCursor).toBe(connection.edges.at(-1)?.cursor ?? null);
    const more = direction === 'forward' ? pageInfo.hasNextPage : pageInfo.hasPreviousPage;
    if (!more) return { ids, steps, totals };
    cursor = direction === 'forward' ? pageInfo.endCursor! : pageInfo.startCursor!;
    await between(steps);
  }
  throw new Error('the walk did not end');
}

function dataOf<T>(response: GraphqlResponse<T>): T {
  expect(response.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return response.data!;
}

describeEachDialect('GraphQL connections', (dialect) => {
  let t: TestApp;
  const descriptions = [
    'Lock',
    'lock',
    'Boxes',
    'boxes',
    'Tape',
    'Zed',
    'alpha',
    'Émile',
    'émile',
    'Bubble wrap',
  ];
  const kinds = ['retail', 'service', 'insurance', 'fee'] as const;
  const sister = { id: randomUUID(), name: 'Sister Storage', time_zone: 'UTC' };

  const item = (facility_id: string, n: number) =>
    buildItem({
      facility_id,
      kind: kinds[n % kinds.length],
      description: descriptions[n % descriptions.length],
      rental_center_eligible: n % 3 !== 0 ? true : undefined,
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facilityId = t.world.facility.id;
    const second = buildFacility({ company_id: t.world.company.id, ...sister });
    const tenants = ['adam Smith', 'Adam SMITH', 'Zoë Quinn', 'bob Brown', 'Carl Cole'].map((name, i) =>
      buildTenant({
        facility_id: i % 2 === 0 ? facilityId : second.id,
        first_name: name.split(' ')[0],
        last_name: name.split(' ')[1],
      }),
    );
    const units = tenants.map((tenant) => buildUnit({ facility_id: tenant.facility_id }));
    await t.load({
      facilities: [second],
      tenants,
      units,
      invoiceable_items: [
        ...Array.from({ length: 45 }, (_, n) => item(facilityId, n)),
        ...Array.from({ length: 5 }, (_, n) => item(second.id, n)),
      ],
      rate_changes: Array.from({ length: 47 }, (_, n) =>
        buildRateChange({
          facility_id: tenants[n % tenants.length].facility_id,
          tenant_id: tenants[n % tenants.length].id,
          unit_id: units[n % units.length].id,
          // Many share an instant: the id breaks the tie.
          changed_at: `2026-0${1 + (n % 4)}-1${n % 3}T08:00:00Z`,
          created_by: n % 2 === 0 ? 7 : null,
        }),
      ),
    });
  });

  afterAll(() => t.close());

  const itemsStep =
    (list: InvoiceableItemList, facilityId = t.world.facility.id) =>
    async (args: { first?: number; after?: string; last?: number; before?: string }) =>
      dataOf(await run(t, ItemsConnection, { id: facilityId, list, ...args })).facility!
        .invoiceableItemsConnection;

  const updatesStep =
    (createdBy: number | null = null) =>
    async (args: { first?: number; after?: string; last?: number; before?: string }) =>
      dataOf(await run(t, UpdatesConnection, { id: t.world.company.id, ...WIDE, createdBy, ...args }))
        .company!.rateChangeUpdatesConnection;

  it.each<InvoiceableItemList>(['ALL', 'RETAIL', 'RENTAL_CENTER', 'INSURANCE'])(
    'walks the %s items by 7, forward and backward, as the page list has them',
    async (list) => {
      const page = dataOf(await run(t, Items, { id: t.world.facility.id, list, perPage: 100 })).facility!
        .invoiceableItems;
      const listed = page.entries.map((entry) => entry.id);
      expect(listed.length).toBeGreaterThan(7);
      const forward = await walk(itemsStep(list), 'forward', 7);
      expect(forward.ids).toEqual(listed);
      expect(forward.steps).toBe(Math.ceil(listed.length / 7));
      expect([...forward.totals]).toEqual([page.pagination.totalEntries]);
      const backward = await walk(itemsStep(list), 'backward', 7);
      expect(backward.ids).toEqual(listed);
      // The default: the first 100, and `last: n` alone is the list's last n.
      const all = await itemsStep(list)({});
      expect(all.edges.map((edge) => edge.node.id)).toEqual(listed);
      expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      const lastThree = await itemsStep(list)({ last: 3 });
      expect(lastThree.edges.map((edge) => edge.node.id)).toEqual(listed.slice(-3));
      expect(lastThree.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    },
  );

  it.each([null, 7])(
    'walks the rate change updates (createdBy %s) by 7 both ways as the page list has them',
    async (createdBy) => {
      const page = dataOf(await run(t, Updates, { id: t.world.company.id, ...WIDE, createdBy, perPage: 500 }))
        .company!.rateChangeUpdates;
      const listed = page.entries.map((entry) => entry.id);
      expect(listed.length).toBeGreaterThan(14);
      const forward = await walk(updatesStep(createdBy), 'forward', 7);
      expect(forward.ids).toEqual(listed);
      expect([...forward.totals]).toEqual([page.pagination.totalEntries]);
      const backward = await walk(updatesStep(createdBy), 'backward', 7);
      expect(backward.ids).toEqual(listed);
      const lastFive = await updatesStep(createdBy)({ last: 5 });
      expect(lastFive.edges.map((edge) => edge.node.id)).toEqual(listed.slice(-5));
      // Between two cursors: what lies strictly between them.
      const all = await updatesStep(createdBy)({ first: 100 });
      const between = await updatesStep(createdBy)({
        first: 100,
        after: all.edges[2].cursor,
        before: all.edges[9].cursor,
      });
      expect(between.edges.map((edge) => edge.node.id)).toEqual(listed.slice(3, 9));
      expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    },
  );

  it('walks while items are added: no duplicate, nothing that was there skipped', async () => {
    const facility = buildFacility({ company_id: t.world.company.id, name: 'Growing' });
    await t.load({
      facilities: [facility],
      invoiceable_items: Array.from({ length: 30 }, (_, n) => item(facility.id, n)),
    });
    const before = (await itemsStep('ALL', facility.id)({ first: 100 })).edges.map((edge) => edge.node.id);
    let added = 30;
    const walked = await walk(itemsStep('ALL', facility.id), 'forward', 7, async () => {
      // Rows that sort everywhere: before the cursor, at it, after it.
      await t.load({ invoiceable_items: [0, 1, 2].map((k) => item(facility.id, added + k * 7)) });
      added += 3;
    });
    expect(new Set(walked.ids).size).toBe(walked.ids.length);
    expect(walked.ids).toEqual(expect.arrayContaining(before));
    const after = (await itemsStep('ALL', facility.id)({ first: 100 })).edges.map((edge) => edge.node.id);
    expect(after.length).toBeGreaterThan(before.length);
    // What the walk met is in the list's order.
    expect(walked.ids).toEqual(after.filter((id) => walked.ids.includes(id)));
  });

  it('walks while rate changes are added: no duplicate, nothing that was there skipped', async () => {
    const before = (await updatesStep()({ first: 100 })).edges.map((edge) => edge.node.id);
    const tenant = buildTenant({ facility_id: t.world.facility.id, first_name: 'Bea', last_name: 'Moss' });
    const unit = buildUnit({ facility_id: t.world.facility.id });
    await t.load({ tenants: [tenant], units: [unit] });
    const walked = await walk(updatesStep(), 'backward', 7, async (n) => {
      await t.load({
        rate_changes: [0, 1].map((k) =>
          buildRateChange({
            facility_id: t.world.facility.id,
            tenant_id: tenant.id,
            unit_id: unit.id,
            changed_at: `2026-0${1 + ((n + k) % 9)}-01T00:00:00Z`,
          }),
        ),
      });
    });
    expect(new Set(walked.ids).size).toBe(walked.ids.length);
    expect(walked.ids).toEqual(expect.arrayContaining(before));
  });

  it('refuses bad arguments as BAD_USER_INPUT naming each, never another list, facility or company', async () => {
    const refused = async (variables: Partial<InvoiceableItemsConnectionQueryVariables>) => {
      const response = await run(t, ItemsConnection, { id: t.world.facility.id, ...variables });
      expect(response.status).toBe(200);
      expect(codesOf(response)).toEqual(['BAD_USER_INPUT']);
      expect(response.data?.facility?.invoiceableItemsConnection ?? null).toBeNull();
      return response.errors![0].message;
    };
    expect(await refused({ first: 3, last: 3 })).toMatch(/last/);
    expect(await refused({ first: -1 })).toMatch(/first/);
    expect(await refused({ first: 101 })).toMatch(/first/);
    expect(await refused({ last: 101 })).toMatch(/last/);
    expect(await refused({ after: 'not a cursor!' })).toMatch(/after/);
    expect(await refused({ before: 'bm90IGpzb24' })).toMatch(/before/);
    // Another facility's cursor (same company), another list's, another company's.
    const sisterCursor = (await itemsStep('ALL', sister.id)({ first: 1 })).edges[0].cursor;
    expect(await refused({ after: sisterCursor })).toMatch(/after/);
    const updateCursor = (await updatesStep()({ first: 1 })).edges[0].cursor;
    expect(await refused({ after: updateCursor })).toMatch(/after/);
    const foreign = encodeCursor({ list: 'Company.rateChangeUpdates', owner: t.world.otherCompany.id }, [
      'a',
      'b',
      'c',
      'd',
    ]);
    const response = await run(t, UpdatesConnection, { id: t.world.company.id, ...WIDE, after: foreign });
    expect(codesOf(response)).toEqual(['BAD_USER_INPUT']);
    expect(response.errors![0].message).toMatch(/after/);
    // Window and slice problems are named together.
    const both = await run(t, UpdatesConnection, {
      id: t.world.company.id,
      updatedAfter: WIDE.updatedBefore,
      updatedBefore: WIDE.updatedAfter,
      first: 500,
    });
    expect(codesOf(both)).toEqual(['BAD_USER_INPUT']);
    expect(both.errors![0].message).toMatch(/updatedAfter.*first|first.*updatedAfter/s);
  });

  it('costs a connection by first or last', async () => {
    const cost = async (slice: string) => {
      const response = await postGraphql<unknown>(
        t.app,
        {
          query: `query($id: UUID!) { facility(id: $id) { invoiceableItemsConnection${slice ? `(${slice})` : ''} { edges { node { id } } totalCount } } }`,
          variables: { id: t.world.facility.id },
          extensions: { cost: true },
        },
        { bearer: t.world.client.bearer_token },
      );
      expect(response.errors).toBeUndefined();
      return (response.raw.json() as { extensions: { cost: { estimated: number } } }).extensions.cost
        .estimated;
    };
    const five = await cost('first: 5');
    expect(await cost('last: 5')).toBe(five);
    expect(await cost('first: 50')).toBeGreaterThan(five * 5);
    expect(await cost('')).toBe(await cost('first: 100'));
  });
});
