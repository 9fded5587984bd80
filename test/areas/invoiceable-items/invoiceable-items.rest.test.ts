import type { DatasetFacility, DatasetInvoiceableItem } from '../../../src/store/dataset/dataset.types';
import { buildFacility, buildItem } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';

const UNKNOWN_ID = '7d1c3f7e-1111-4222-8333-944455556666';

/** Fixed ids, so the order of items with equal descriptions is known. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Body {
  invoiceable_items: Array<Record<string, unknown>>;
  meta: Record<string, unknown> & {
    pagination: Record<string, unknown>;
    parameters: Record<string, unknown>;
  };
}

const descriptions = (body: Body) => body.invoiceable_items.map((item) => item.description);

describeEachDialect('GET /v1/:facility_id/invoiceable_items', (dialect) => {
  let t: TestApp;
  let empty: DatasetFacility;
  let lockLower: DatasetInvoiceableItem;
  let lockUpper: DatasetInvoiceableItem;
  let insurance: DatasetInvoiceableItem;
  let tiered: DatasetInvoiceableItem;
  const base = () => `/v1/${t.world.facility.id}/invoiceable_items`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    const facility_id = facility.id;
    empty = buildFacility({ company_id: company.id, name: 'Empty Site' });
    lockUpper = buildItem({
      facility_id,
      id: id(2),
      description: 'Lock',
      product_code: 'LOCK-DISC',
      short_description: 'Disc lock',
      invoiceable_amounts: [{ id: id(902), amount: 19.99, kind: 'amount', limit: null }],
      tax_total: 1.6,
      total: 21.59,
      quantity: 7,
      is_rental_center_lock: true,
      rental_center_eligible: true,
    });
    lockLower = buildItem({
      facility_id,
      id: id(1),
      description: 'lock',
      product_code: 'LOCK-PAD',
      invoiceable_amounts: [{ id: id(901), amount: 9.5, kind: 'amount', limit: null }],
      tax_total: 0.76,
      total: 10.26,
      quantity: 0,
      rental_center_eligible: true,
    });
    insurance = buildItem({
      facility_id,
      id: id(3),
      kind: 'insurance',
      description: 'Protection plan 2000',
      product_code: 'INS-2000',
      invoiceable_amounts: [{ id: id(903), amount: 12, kind: 'amount', limit: null }],
      tax_total: 0,
      total: 12,
      coverage_amount: 2000,
      coverage_percentage: 100,
      provider_name: 'SafeGuard',
      provider_key: 'safeguard',
    });
    tiered = buildItem({
      facility_id,
      id: id(4),
      kind: 'fee',
      fee_category: 'move_in',
      description: 'admin fee',
      product_code: 'FEE-ADMIN',
      required_at_move_in: true,
      show_in_sales_center: false,
      invoiceable_amounts: [
        { id: id(905), amount: 25, kind: 'amount', limit: 100 },
        { id: id(904), amount: 12.5, kind: 'percent', limit: null },
      ],
      tax_total: 0,
      total: 25,
    });
    await t.load({
      facilities: [empty],
      invoiceable_items: [
        lockUpper,
        buildItem({ facility_id, id: id(5), kind: 'service', description: 'Climate control' }),
        buildItem({
          facility_id,
          id: id(6),
          kind: 'retail',
          description: 'Boxes',
          rental_center_eligible: false,
        }),
        insurance,
        lockLower,
        tiered,
        buildItem({ facility_id, id: id(7), kind: 'fee', fee_category: 'other', description: 'Late fee' }),
        buildItem({ facility_id, id: id(8), kind: 'service', description: 'archive access' }),
        buildItem({
          facility_id: otherFacility.id,
          description: 'Foreign lock',
          rental_center_eligible: true,
        }),
      ],
    });
  });
  afterAll(() => t.close());

  it('lists every item by kind, then description case-insensitively, then id, with pagination first', async () => {
    const res = await t.get(base(), { 'x-request-id': 'items-1' });
    expect(res.statusCode).toBe(200);
    const body: Body = res.json();
    expect(Object.keys(body)).toEqual(['invoiceable_items', 'meta']);
    expect(descriptions(body)).toEqual([
      'admin fee',
      'Late fee',
      'Protection plan 2000',
      'Boxes',
      'lock',
      'Lock',
      'archive access',
      'Climate control',
    ]);
    expect(body.meta).toEqual({
      pagination: {
        current_page: 1,
        total_pages: 1,
        per_page: 100,
        total_entries: 8,
        previous_page: null,
        next_page: null,
      },
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'GET',
      request_id: 'items-1',
      parameters: { page: 1, per_page: 100, facility_id: t.world.facility.id, invoiceable_item: {} },
    });
    expect(Object.keys(body.meta)[0]).toBe('pagination');
  });

  it('writes a retail item with the contract fields in order, money as numbers', async () => {
    const body: Body = (await t.get(`${base()}/retail`)).json();
    const item = body.invoiceable_items.find((i) => i.id === lockUpper.id)!;
    expect(item).toEqual({
      id: lockUpper.id,
      product_code: 'LOCK-DISC',
      kind: 'retail',
      description: 'Lock',
      required_at_move_in: false,
      required_at_transfer: false,
      amount: 19.99,
      short_description: 'Disc lock',
      show_in_sales_center: true,
      tax_total: 1.6,
      total: 21.59,
      invoiceable_amounts: [{ id: id(902), amount: 19.99, kind: 'amount', limit: null }],
      quantity: 7,
      is_rental_center_lock: true,
    });
    expect(Object.keys(item)).toEqual([
      'id',
      'product_code',
      'kind',
      'description',
      'required_at_move_in',
      'required_at_transfer',
      'amount',
      'short_description',
      'show_in_sales_center',
      'tax_total',
      'total',
      'invoiceable_amounts',
      'quantity',
      'is_rental_center_lock',
    ]);
  });

  it('writes an insurance item with its coverage and provider', async () => {
    const res = await t.get(`${base()}/insurance`);
    expect(res.statusCode).toBe(200);
    const body: Body = res.json();
    expect(body.invoiceable_items).toEqual([
      {
        id: insurance.id,
        product_code: 'INS-2000',
        kind: 'insurance',
        description: 'Protection plan 2000',
        required_at_move_in: false,
        required_at_transfer: false,
        amount: 12,
        short_description: null,
        show_in_sales_center: true,
        tax_total: 0,
        total: 12,
        invoiceable_amounts: [{ id: id(903), amount: 12, kind: 'amount', limit: null }],
        coverage_amount: 2000,
        coverage_percentage: 100,
        provider_name: 'SafeGuard',
        provider_key: 'safeguard',
      },
    ]);
    expect(Object.keys(body.invoiceable_items[0]).slice(-4)).toEqual([
      'coverage_amount',
      'coverage_percentage',
      'provider_name',
      'provider_key',
    ]);
    expect(body.meta.parameters).toEqual({
      page: 1,
      per_page: 100,
      facility_id: t.world.facility.id,
      invoiceable_item: {},
    });
  });

  it('answers "Variable" for an item with several tiers, listing the tiers in position order', async () => {
    const body: Body = (await t.get(base())).json();
    const item = body.invoiceable_items.find((i) => i.id === tiered.id)!;
    expect(item).toEqual({
      id: tiered.id,
      product_code: 'FEE-ADMIN',
      kind: 'fee',
      description: 'admin fee',
      required_at_move_in: true,
      required_at_transfer: false,
      amount: 'Variable',
      short_description: null,
      show_in_sales_center: false,
      tax_total: 0,
      total: 25,
      invoiceable_amounts: [
        { id: id(905), amount: 25, kind: 'amount', limit: 100 },
        { id: id(904), amount: 12.5, kind: 'percent', limit: null },
      ],
    });
  });

  it('lists services only under /services', async () => {
    const body: Body = (await t.get(`${base()}/services`)).json();
    expect(descriptions(body)).toEqual(['archive access', 'Climate control']);
    expect(body.invoiceable_items.map((i) => i.kind)).toEqual(['service', 'service']);
    expect(Object.keys(body.invoiceable_items[0])).not.toContain('quantity');
  });

  it('lists retail items only under /retail, out-of-stock ones included', async () => {
    const body: Body = (await t.get(`${base()}/retail`)).json();
    expect(descriptions(body)).toEqual(['Boxes', 'lock', 'Lock']);
    expect(body.invoiceable_items.find((i) => i.id === lockLower.id)!.quantity).toBe(0);
  });

  it('lists the retail items eligible for the rental center under /rental_center, paginated', async () => {
    const res = await t.get(`${base()}/rental_center?per_page=1`);
    expect(res.statusCode).toBe(200);
    const body: Body = res.json();
    expect(Object.keys(body)).toEqual(['invoiceable_items', 'meta']);
    expect(body.invoiceable_items.map((i) => i.id)).toEqual([lockLower.id]);
    expect(body.meta.pagination).toEqual({
      current_page: 1,
      total_pages: 2,
      per_page: 1,
      total_entries: 2,
      previous_page: null,
      next_page: 2,
    });
    expect(body.meta.parameters).toEqual({
      per_page: '1',
      page: 1,
      facility_id: t.world.facility.id,
      invoiceable_item: {},
    });
    const second: Body = (await t.get(`${base()}/rental_center?per_page=1&page=2`)).json();
    expect(second.invoiceable_items.map((i) => i.id)).toEqual([lockUpper.id]);
  });

  it('pages with per_page=1: total_pages = number of items, each page the next item', async () => {
    const all: Body = (await t.get(base())).json();
    const seen: unknown[] = [];
    for (let page = 1; page <= 8; page += 1) {
      const body: Body = (await t.get(`${base()}?per_page=1&page=${page}`)).json();
      expect(body.meta.pagination).toEqual({
        current_page: page,
        total_pages: 8,
        per_page: 1,
        total_entries: 8,
        previous_page: page === 1 ? null : page - 1,
        next_page: page === 8 ? null : page + 1,
      });
      seen.push(...body.invoiceable_items.map((i) => i.id));
    }
    expect(seen).toEqual(all.invoiceable_items.map((i) => i.id));
  });

  it('answers a page past the end with an empty list and correct meta', async () => {
    const res = await t.get(`${base()}?page=3&per_page=5`);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoiceable_items).toEqual([]);
    expect(res.json().meta.pagination).toEqual({
      current_page: 3,
      total_pages: 2,
      per_page: 5,
      total_entries: 8,
      previous_page: 2,
      next_page: null,
    });
  });

  it('reads a per_page above 100 as 100', async () => {
    const res = await t.get(`${base()}/retail?per_page=500`);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoiceable_items).toHaveLength(3);
    expect(res.json().meta.pagination.per_page).toBe(100);
    expect(res.json().meta.parameters).toMatchObject({ per_page: '500', page: 1 });
  });

  it('answers an empty list for a facility without items', async () => {
    for (const path of ['', '/insurance', '/services', '/retail', '/rental_center']) {
      const res = await t.get(`/v1/${empty.id}/invoiceable_items${path}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().invoiceable_items).toEqual([]);
      expect(res.json().meta.pagination).toEqual({
        current_page: 1,
        total_pages: 1,
        per_page: 100,
        total_entries: 0,
        previous_page: null,
        next_page: null,
      });
    }
  });

  it('loads a page of items, with their tiers and count, in one statement of their kept listings', async () => {
    // A page size no other test asks for, so the page is not kept from an earlier request.
    t.db.queries.length = 0;
    const res = await t.get(`${base()}?per_page=7`);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoiceable_items).toHaveLength(7);
    // Each item's listing holds its tiers: none is read.
    expect(t.db.queries.filter((q) => /from "?invoiceable_amounts"?/.test(q))).toHaveLength(0);
    expect(t.db.queries.filter((q) => /from "?invoiceable_items"?/.test(q))).toHaveLength(1);
    expect(
      res
        .json()
        .invoiceable_items.some(
          (item: { invoiceable_amounts: unknown[] }) => item.invoiceable_amounts.length > 0,
        ),
    ).toBe(true);

    // Asked again with nothing changed, it is sent as kept: no item or tier is read.
    t.db.queries.length = 0;
    const again = await t.get(`${base()}?per_page=7`);
    expect(again.body).toBe(res.body.replace(res.json().meta.request_id, again.json().meta.request_id));
    expect(t.db.queries.filter((q) => /invoiceable_/.test(q))).toEqual([]);
  });

  const paths = ['', '/insurance', '/services', '/retail', '/rental_center'];

  it.each(
    paths.flatMap((path) => [
      [path, 'per_page', '0'],
      [path, 'per_page', '-1'],
      [path, 'per_page', 'abc'],
      [path, 'page', '0'],
      [path, 'page', '1.5'],
    ]),
  )('%s answers 400/4 naming %s for %j', async (path, parameter, value) => {
    const res = await t.get(`${base()}${path}?${parameter}=${value}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ status_code: 400, error_code: 4, errors: [{ parameter }] });
    expect(res.json()).not.toHaveProperty('invoiceable_items');
  });

  it.each([
    ['per_page', '1.5'],
    ['per_page', ''],
    ['per_page', "1'%20OR%20'1'%3D'1"],
    ['per_page', 'x'.repeat(10000)],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '1;DROP%20TABLE%20invoiceable_items'],
    ['page', '9'.repeat(10000)],
  ])('answers 400/4 naming %s for %j', async (parameter, value) => {
    const res = await t.get(`${base()}?${parameter}=${value}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter }] });
    expect(res.json().meta.message).toContain(parameter);
  });

  it.each([...paths, '/fees'])('%s answers 403/13 for a facility of another company', async (path) => {
    const res = await t.get(`/v1/${t.world.otherFacility.id}/invoiceable_items${path}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta).toMatchObject({ status_code: 403, error_code: 13 });
    expect(Object.keys(res.json())).toEqual(['meta']);
  });

  it.each([...paths, '/fees'])(
    '%s answers 404/9 naming facility_id for an unknown facility',
    async (path) => {
      for (const facilityId of [UNKNOWN_ID, "1'%20OR%20'1'%3D'1", 'f'.repeat(3000)]) {
        const res = await t.get(`/v1/${facilityId}/invoiceable_items${path}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
      }
    },
  );

  it.each([...paths, '/fees'])('%s answers 401/2 without credentials', async (path) => {
    const res = await t.app.inject({ method: 'GET', url: `${base()}${path}?page=0` });
    expect(res.statusCode).toBe(401);
    expect(res.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
    expect(Object.keys(res.json())).toEqual(['meta']);
  });

  it('answers 404 for an unknown list name, and 405 for a wrong method on a list', async () => {
    const unknown = await t.get(`${base()}/everything`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().meta.error_code).toBe(9);
    const wrong = await t.app.inject({ method: 'DELETE', url: `${base()}/fees` });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
  });
});

describeEachDialect('GET /v1/:facility_id/invoiceable_items/fees', (dialect) => {
  let t: TestApp;
  let empty: DatasetFacility;
  const fee = (o: Partial<DatasetInvoiceableItem>) =>
    buildItem({ facility_id: t.world.facility.id, kind: 'fee', ...o });
  let items: Record<string, DatasetInvoiceableItem>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    empty = buildFacility({ company_id: t.world.company.id, name: 'Empty Site' });
    items = {
      depositB: fee({ id: id(12), fee_category: 'security_deposit', description: 'Security deposit' }),
      depositA: fee({ id: id(11), fee_category: 'security_deposit', description: 'security deposit' }),
      reservation: fee({ id: id(13), fee_category: 'reservation', description: 'Reservation fee' }),
      adminB: fee({
        id: id(14),
        fee_category: 'move_in',
        description: 'Lock cut',
        required_at_move_in: true,
      }),
      adminA: fee({
        id: id(15),
        fee_category: 'move_in',
        description: 'admin fee',
        required_at_move_in: true,
      }),
      transfer: fee({
        id: id(16),
        fee_category: 'transfer',
        description: 'Transfer fee',
        required_at_transfer: true,
      }),
      late: fee({ id: id(17), fee_category: 'other', description: 'Late fee' }),
      nsf: fee({ id: id(18), description: 'NSF fee', fee_category: undefined }),
      retail: buildItem({
        facility_id: t.world.facility.id,
        id: id(19),
        kind: 'retail',
        description: 'Boxes',
      }),
    };
    delete items.nsf.fee_category;
    await t.load({ facilities: [empty], invoiceable_items: Object.values(items) });
  });
  afterAll(() => t.close());

  it('groups fee items by fee category, single categories taking the first in list order', async () => {
    const res = await t.get(`/v1/${t.world.facility.id}/invoiceable_items/fees`, {
      'x-request-id': 'fees-1',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['fees', 'meta']);
    expect(Object.keys(body.fees)).toEqual([
      'security_deposit',
      'online_payment',
      'reservation',
      'move_in_fees',
      'transfer_fees',
      'other',
    ]);
    expect(body.fees.security_deposit).toEqual({
      id: items.depositA.id,
      product_code: 'FEE-1',
      kind: 'fee',
      description: 'security deposit',
      required_at_move_in: false,
      required_at_transfer: false,
      amount: 10,
      short_description: null,
      show_in_sales_center: true,
      tax_total: 0.8,
      total: 10.8,
      invoiceable_amounts: [
        { id: items.depositA.invoiceable_amounts[0].id, amount: 10, kind: 'amount', limit: null },
      ],
    });
    expect(body.fees.online_payment).toBeNull();
    expect(body.fees.reservation.id).toBe(items.reservation.id);
    const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);
    expect(ids(body.fees.move_in_fees)).toEqual([items.adminA.id, items.adminB.id]);
    expect(ids(body.fees.transfer_fees)).toEqual([items.transfer.id]);
    expect(ids(body.fees.other)).toEqual([items.late.id, items.nsf.id]);
    expect(body.meta).toEqual({
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'GET',
      request_id: 'fees-1',
      parameters: { facility_id: t.world.facility.id, invoiceable_item: {} },
    });
  });

  it('answers nulls and empty lists for a facility without fees', async () => {
    const res = await t.get(`/v1/${empty.id}/invoiceable_items/fees`);
    expect(res.statusCode).toBe(200);
    expect(res.json().fees).toEqual({
      security_deposit: null,
      online_payment: null,
      reservation: null,
      move_in_fees: [],
      transfer_fees: [],
      other: [],
    });
  });

  it('is not paginated and ignores page parameters', async () => {
    const res = await t.get(`/v1/${t.world.facility.id}/invoiceable_items/fees?page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).not.toHaveProperty('pagination');
    expect(res.json().fees.other).toHaveLength(2);
  });

  describe('batch lookups for GraphQL', () => {
    it('answers items in key order, null for a missing one', async () => {
      const found = await t.services.invoiceableItems.itemsByIds([
        items.late.id,
        UNKNOWN_ID,
        items.retail.id,
      ]);
      expect(found.map((item) => item?.id ?? null)).toEqual([items.late.id, null, items.retail.id]);
      expect(found[2]).toMatchObject({
        kind: 'retail',
        description: 'Boxes',
        taxTotalCents: 80,
        totalCents: 1080,
        quantity: 10,
        feeCategory: null,
      });
      expect(await t.services.invoiceableItems.itemsByIds([])).toEqual([]);
    });

    it('answers tiers of several items in key order with one query, [] for none', async () => {
      t.db.queries.length = 0;
      const tiers = await t.services.invoiceableItems.tiersByItemIds([
        items.adminB.id,
        UNKNOWN_ID,
        items.late.id,
      ]);
      expect(t.db.queries).toHaveLength(1);
      expect(tiers).toEqual([
        [
          {
            id: items.adminB.invoiceable_amounts[0].id,
            invoiceableItemId: items.adminB.id,
            position: 0,
            kind: 'amount',
            amountCents: 1000,
            limitValue: null,
          },
        ],
        [],
        [expect.objectContaining({ invoiceableItemId: items.late.id })],
      ]);
    });
  });
});

describeEachDialect('invoiceable item order with non-ASCII descriptions', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility_id = t.world.facility.id;
    await t.load({
      invoiceable_items: ['éa', 'Zebra', 'Éb', 'ea', 'Eb', 'apple'].map((description, i) =>
        buildItem({ facility_id, id: id(100 + i), kind: 'service', description }),
      ),
    });
  });
  afterAll(() => t.close());

  it('sorts identically on every dialect: ASCII letters fold, others by code point', async () => {
    const body: Body = (await t.get(`/v1/${t.world.facility.id}/invoiceable_items/services`)).json();
    expect(descriptions(body)).toEqual(['apple', 'ea', 'Eb', 'Zebra', 'Éb', 'éa']);
  });
});
