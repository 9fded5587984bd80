import type {
  InvoiceableItemFeesQuery,
  InvoiceableItemFeesQueryVariables,
  InvoiceableItemList,
  InvoiceableItemsQuery,
  InvoiceableItemsQueryVariables,
  PaymentLineItemsQuery,
  PaymentLineItemsQueryVariables,
} from '../../generated/graphql';
import { cash, line, payment } from '../../support/payments';
import { buildFacility, buildItem } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, run } from '../../graphql/graphql-client';
import { camelize, restPagination } from '../../graphql/rest-compare';

const Items = operation<InvoiceableItemsQuery, InvoiceableItemsQueryVariables>(
  'invoiceable-items.graphql',
  'InvoiceableItems',
);
const Fees = operation<InvoiceableItemFeesQuery, InvoiceableItemFeesQueryVariables>(
  'invoiceable-items.graphql',
  'InvoiceableItemFees',
);

const LineItems = operation<PaymentLineItemsQuery, PaymentLineItemsQueryVariables>(
  'invoiceable-items.graphql',
  'PaymentLineItems',
);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A REST item (2.7) as GraphQL writes it: camelCase, kinds as enum values, "Variable" as a null
 * amount with amountIsVariable; insurance and retail fields, as in REST, only on those kinds.
 */
function restItemAsGraphql(item: Record<string, unknown> | null): Record<string, unknown> | null {
  if (item === null) return null;
  const camel = camelize(item) as Record<string, unknown> & {
    invoiceableAmounts: Array<Record<string, unknown>>;
  };
  return {
    ...camel,
    kind: String(camel.kind).toUpperCase(),
    amount: camel.amount === 'Variable' ? null : camel.amount,
    amountIsVariable: camel.amount === 'Variable',
    invoiceableAmounts: camel.invoiceableAmounts.map((tier) => ({
      ...tier,
      kind: String(tier.kind).toUpperCase(),
    })),
  };
}

const LISTS: Array<[InvoiceableItemList, string]> = [
  ['ALL', ''],
  ['INSURANCE', '/insurance'],
  ['SERVICES', '/services'],
  ['RETAIL', '/retail'],
  ['RENTAL_CENTER', '/rental_center'],
];

describeEachDialect('GraphQL invoiceable items', (dialect) => {
  let t: TestApp;
  let emptyFacilityId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    const facility_id = facility.id;
    const empty = buildFacility({ company_id: company.id, name: 'Empty Site' });
    emptyFacilityId = empty.id;
    const fee = (
      n: number,
      fee_category: NonNullable<Parameters<typeof buildItem>[0]['fee_category']>,
      description: string,
    ) =>
      buildItem({
        facility_id,
        id: id(n),
        kind: 'fee',
        fee_category,
        description,
        required_at_move_in: fee_category === 'move_in',
      });
    await t.load({
      facilities: [empty],
      invoiceable_items: [
        buildItem({ facility_id, id: id(1), description: 'lock', quantity: 0, rental_center_eligible: true }),
        buildItem({
          facility_id,
          id: id(2),
          description: 'Lock',
          short_description: 'Disc lock',
          invoiceable_amounts: [{ id: id(902), amount: 19.99, kind: 'amount', limit: null }],
          tax_total: 1.6,
          total: 21.59,
          is_rental_center_lock: true,
          rental_center_eligible: true,
        }),
        buildItem({ facility_id, id: id(3), description: 'Boxes' }),
        buildItem({
          facility_id,
          id: id(4),
          kind: 'insurance',
          description: 'Protection plan',
          coverage_amount: 2500.5,
          coverage_percentage: 12.5,
          invoiceable_amounts: [
            { id: id(941), amount: 9, kind: 'amount', limit: 1000 },
            { id: id(942), amount: 1.25, kind: 'percent', limit: null },
          ],
        }),
        buildItem({
          facility_id,
          id: id(5),
          kind: 'service',
          description: 'Climate control',
          invoiceable_amounts: [],
        }),
        fee(6, 'security_deposit', 'Deposit'),
        fee(7, 'security_deposit', 'A second deposit'),
        fee(8, 'online_payment', 'Online payment fee'),
        fee(9, 'move_in', 'Admin fee'),
        fee(10, 'move_in', 'Lock fee'),
        fee(11, 'transfer', 'Transfer fee'),
        fee(12, 'other', 'Late fee'),
        buildItem({ facility_id: otherFacility.id, description: 'Not ours' }),
      ],
    });
  });
  afterAll(() => t.close());

  it.each(LISTS)('answers the %s list as REST does, page after page', async (list, path) => {
    for (const [page, perPage] of [
      [undefined, undefined],
      [1, 1],
      [2, 3],
      [3, 5],
      [99, 100],
      [1, 1000],
    ]) {
      const res = await run(t, Items, { id: t.world.facility.id, list, page, perPage });
      expect(res.errors).toBeUndefined();
      const query = [page && `page=${page}`, perPage && `per_page=${perPage}`].filter(Boolean).join('&');
      const rest = (
        await t.get(`/v1/${t.world.facility.id}/invoiceable_items${path}${query ? `?${query}` : ''}`)
      ).json();
      expect(res.data?.facility?.invoiceableItems).toEqual({
        entries: rest.invoiceable_items.map(restItemAsGraphql),
        pagination: restPagination(rest),
      });
    }
  });

  it('lists every item by default: kind, then description case-insensitively, then id', async () => {
    const res = await run(t, Items, { id: t.world.facility.id });
    const entries = res.data?.facility?.invoiceableItems.entries ?? [];
    expect(entries.map((item) => [item.kind, item.description])).toEqual([
      ['FEE', 'A second deposit'],
      ['FEE', 'Admin fee'],
      ['FEE', 'Deposit'],
      ['FEE', 'Late fee'],
      ['FEE', 'Lock fee'],
      ['FEE', 'Online payment fee'],
      ['FEE', 'Transfer fee'],
      ['INSURANCE', 'Protection plan'],
      ['RETAIL', 'Boxes'],
      ['RETAIL', 'lock'],
      ['RETAIL', 'Lock'],
      ['SERVICE', 'Climate control'],
    ]);
    expect(res.data?.facility?.invoiceableItems.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      perPage: 100,
      totalEntries: 12,
      previousPage: null,
      nextPage: null,
    });
    const insurance = entries.find((item) => item.kind === 'INSURANCE');
    expect(insurance).toMatchObject({
      amount: null,
      amountIsVariable: true,
      coverageAmount: 2500.5,
      coveragePercentage: 12.5,
      providerName: 'SafeGuard',
      invoiceableAmounts: [
        { id: id(941), amount: 9, kind: 'AMOUNT', limit: 1000 },
        { id: id(942), amount: 1.25, kind: 'PERCENT', limit: null },
      ],
    });
    expect(insurance).not.toHaveProperty('quantity');
    expect(entries.find((item) => item.description === 'Lock')).toMatchObject({
      quantity: 10,
      isRentalCenterLock: true,
    });
    // Without tiers, the amount is the pre-tax price.
    expect(entries.find((item) => item.description === 'Boxes')).toMatchObject({
      amount: 10,
      amountIsVariable: false,
    });
  });

  it('groups the fees as REST does', async () => {
    for (const facilityId of [t.world.facility.id, emptyFacilityId]) {
      const res = await run(t, Fees, { id: facilityId });
      expect(res.errors).toBeUndefined();
      const rest = (await t.get(`/v1/${facilityId}/invoiceable_items/fees`)).json();
      const fees = rest.fees;
      expect(res.data?.facility?.invoiceableItemFees).toEqual({
        securityDeposit: restItemAsGraphql(fees.security_deposit),
        onlinePayment: restItemAsGraphql(fees.online_payment),
        reservation: restItemAsGraphql(fees.reservation),
        moveInFees: fees.move_in_fees.map(restItemAsGraphql),
        transferFees: fees.transfer_fees.map(restItemAsGraphql),
        other: fees.other.map(restItemAsGraphql),
      });
    }
    const res = await run(t, Fees, { id: t.world.facility.id });
    const groups = res.data?.facility?.invoiceableItemFees;
    expect(groups?.securityDeposit?.description).toBe('A second deposit');
    expect(groups?.reservation).toBeNull();
    expect(groups?.moveInFees.map((f) => f.description)).toEqual(['Admin fee', 'Lock fee']);
  });

  it.each([
    ['page', { page: 0 }, 'page must be a whole number >= 1'],
    ['page', { page: -3 }, 'page must be a whole number >= 1'],
    ['perPage', { perPage: 0 }, 'perPage must be a whole number >= 1'],
  ])(
    'answers BAD_USER_INPUT naming %s for a page out of range, as REST answers 400/4',
    async (parameter, args, message) => {
      const res = await run(t, Items, { id: t.world.facility.id, ...args });
      expect(res.data).toEqual({ facility: null });
      expect(res.errors?.[0]).toMatchObject({
        message,
        path: ['facility', 'invoiceableItems'],
        extensions: { code: 'BAD_USER_INPUT', errorCode: 4, parameter },
      });
    },
  );

  it('refuses an unknown list name and a non-integer page with BAD_USER_INPUT', async () => {
    const unknown = await run(t, Items, { id: t.world.facility.id, list: 'FEES' as InvoiceableItemList });
    expect(codesOf(unknown)).toEqual(['BAD_USER_INPUT']);
    const fraction = await run(t, Items, { id: t.world.facility.id, page: 1.5 });
    expect(codesOf(fraction)).toEqual(['BAD_USER_INPUT']);
    const huge = await run(t, Items, { id: t.world.facility.id, page: 2 ** 40 });
    expect(codesOf(huge)).toEqual(['BAD_USER_INPUT']);
  });

  it("answers FORBIDDEN for another company's facility", async () => {
    const res = await run(t, Fees, { id: t.world.otherFacility.id });
    expect(res.data).toEqual({ facility: null });
    expect(codesOf(res)).toEqual(['FORBIDDEN']);
  });

  it('navigates from the lines of payments to their items, in one statement per kind of record', async () => {
    const url = `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`;
    for (const [item, quantity] of [
      [id(2), 2],
      [id(3), 1],
    ] as const) {
      const paid = await t.postJson(url, payment([line({ id: item }, quantity)], cash(100)));
      expect(paid.statusCode).toBe(200);
      // Events list oldest first: the second payment must come later.
      t.clock.advance(1000);
    }
    t.db.queries.length = 0;
    const res = await run(t, LineItems, { id: t.world.facility.id });
    expect(res.errors).toBeUndefined();
    const lines = res.data?.facility?.events.entries.map((e) => e.successfulPayment?.lines);
    expect(lines).toEqual([
      [
        {
          invoiceableItemId: id(2),
          quantity: 2,
          invoiceableItem: { id: id(2), description: 'Lock', total: 21.59, quantity: 8 },
        },
      ],
      [
        {
          invoiceableItemId: id(3),
          quantity: 1,
          invoiceableItem: { id: id(3), description: 'Boxes', total: 10.8, quantity: 9 },
        },
      ],
    ]);
    const itemStatements = t.db.queries.filter((q) => /from "invoiceable_(items|amounts)"/.test(q));
    expect(itemStatements).toHaveLength(2);
  });
});
