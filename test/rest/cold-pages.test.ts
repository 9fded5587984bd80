import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { InvoiceableItem, PricedItem } from '../../src/areas/invoiceable-items/invoiceable-items.types';
import {
  present as presentInvoiceableItem,
  type InvoiceableItemView,
} from '../../src/areas/invoiceable-items/invoiceable-item.contract';
import {
  present as presentRateChange,
  type RateChangeUpdateView,
} from '../../src/areas/rate-changes/rate-change-update.contract';
import { buildFacility, buildItem, buildRateChange, buildTenant, buildUnit } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, oauthHeader, type TestApp } from '../support/http';

// Names that JSON escapes, that take two to four bytes in UTF-8, and that sort differently by
// bytes than by letters.
const NAMES = [
  'Zürich "Nord" \\ Lager',
  '東京 倉庫 😀',
  'line\nbreak\ttab \u0001 \u2028 end',
  "apostrophe's <b>&amp;</b>",
  'ÅSA Åland',
  'a',
  'B',
];

/** Byte order of UTF-8 after ASCII-only lower-casing, as the stores sort. */
const byBytes = (a: string, b: string) =>
  Buffer.compare(
    Buffer.from(a.replace(/[A-Z]/g, (c) => c.toLowerCase())),
    Buffer.from(b.replace(/[A-Z]/g, (c) => c.toLowerCase())),
  );

/** The contract's rate change update (2.9), fields in its order: what the previous serializer wrote. */
const contractRateChange = (change: RateChangeUpdateView) => ({
  id: change.id,
  facility_name: change.facilityName,
  tenant_id: change.tenantId,
  tenant_name: change.tenantName,
  unit_id: change.unitId,
  unit_name: change.unitName,
  changed_at: change.changedAt,
  old_rate: change.oldRate,
  new_rate: change.newRate,
  effective_on_date: change.effectiveOnDate,
});

/** The contract's invoiceable item (2.7) from the presenters' view: what the previous serializer wrote. */
const contractItemOfView = (item: InvoiceableItemView) => ({
  id: item.id,
  product_code: item.productCode,
  kind: item.kind,
  description: item.description,
  required_at_move_in: item.requiredAtMoveIn,
  required_at_transfer: item.requiredAtTransfer,
  amount: item.amount,
  short_description: item.shortDescription,
  show_in_sales_center: item.showInSalesCenter,
  tax_total: item.taxTotal,
  total: item.total,
  invoiceable_amounts: item.invoiceableAmounts.map((tier) => ({
    id: tier.id,
    amount: tier.amount,
    kind: tier.kind,
    limit: tier.limit,
  })),
  ...(item.kind === 'insurance'
    ? {
        coverage_amount: item.coverageAmount,
        coverage_percentage: item.coveragePercentage,
        provider_name: item.providerName,
        provider_key: item.providerKey,
      }
    : {}),
  ...(item.kind === 'retail'
    ? { quantity: item.quantity, is_rental_center_lock: item.isRentalCenterLock }
    : {}),
});

/** The bytes an answer's data part must have: what the previous builder wrote (JSON.stringify, then Buffer.from). */
const dataPart = (data: Record<string, unknown>) =>
  Buffer.from(`${JSON.stringify(data).slice(0, -1)},"meta":`);

const startsWith = (res: LightMyRequestResponse, prefix: Buffer) => {
  expect(res.statusCode).toBe(200);
  const head = res.rawPayload.subarray(0, prefix.length);
  // Compared as text first, for a readable difference; then byte for byte.
  expect(head.toString()).toBe(prefix.toString());
  expect(head.equals(prefix)).toBe(true);
};

describeEachDialect('cold pages built from the database', (dialect) => {
  let t: TestApp;
  let uncached: Awaited<ReturnType<typeof createInstance>>;
  const get = async (url: string) =>
    uncached.app.inject({
      method: 'GET',
      url,
      headers: { authorization: oauthHeader(t.world.client, { method: 'GET', url }) },
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    uncached = await createInstance(t.db.store, { env: { PAGE_CACHE_MB: '0' }, clock: t.clock });
  });
  afterAll(async () => {
    await uncached.app.close();
    await t.close();
  });

  it('writes a rate change page byte for byte as JSON.stringify of the presented rows, cold and kept', async () => {
    const zones = ['Asia/Kolkata', 'America/New_York', 'Australia/Lord_Howe', 'UTC'];
    const facilities = NAMES.slice(0, 4).map((name, i) =>
      buildFacility({ company_id: t.world.company.id, name, time_zone: zones[i] }),
    );
    const tenants = facilities.flatMap((facility, i) =>
      NAMES.map((name, j) =>
        buildTenant({ facility_id: facility.id, first_name: name, last_name: NAMES[(i + j) % 7] }),
      ),
    );
    const units = facilities.map((facility, i) =>
      buildUnit({ facility_id: facility.id, name: NAMES[6 - i] }),
    );
    // Instants on both sides of daylight saving changes, with and without milliseconds; rates with
    // and without cents.
    const instants = [
      '2026-03-08T06:59:59.999Z',
      '2026-03-08T07:00:00Z',
      '2026-04-04T14:59:00Z',
      '2026-11-01T05:59:59.5Z',
      '2026-11-01T06:00:00Z',
      '2026-12-31T23:30:00Z',
    ];
    const rates = [0.01, 42, 39.2, 1234567.89, 0.1, 99.99];
    const rateChanges = tenants.map((tenant, i) =>
      buildRateChange({
        facility_id: tenant.facility_id,
        tenant_id: tenant.id,
        unit_id: units[facilities.findIndex((f) => f.id === tenant.facility_id)].id,
        changed_at: instants[i % instants.length],
        old_rate: rates[i % rates.length],
        new_rate: rates[(i + 1) % rates.length],
        created_by: i % 2 === 0 ? null : 7,
      }),
    );
    await t.load({ facilities, tenants, units, rate_changes: rateChanges });

    // The expected rows, from the dataset alone, in the contract's order.
    const facilityOf = new Map(facilities.map((f) => [f.id, f]));
    const expected = rateChanges
      .map((change) => {
        const facility = facilityOf.get(change.facility_id)!;
        const tenant = tenants.find((x) => x.id === change.tenant_id)!;
        return {
          id: change.id,
          facilityId: facility.id,
          facilityName: facility.name,
          timeZone: facility.time_zone!,
          tenantId: tenant.id,
          tenantName: `${tenant.first_name} ${tenant.last_name}`,
          unitId: change.unit_id,
          unitName: units.find((u) => u.id === change.unit_id)!.name,
          changedAt: new Date(change.changed_at).toISOString(),
          oldRateCents: Math.round(change.old_rate * 100),
          newRateCents: Math.round(change.new_rate * 100),
          effectiveOnDate: change.effective_on_date,
          createdBy: change.created_by ?? null,
        };
      })
      .sort(
        (a, b) =>
          byBytes(a.facilityName, b.facilityName) ||
          byBytes(a.tenantName, b.tenantName) ||
          (a.changedAt < b.changedAt ? -1 : a.changedAt > b.changedAt ? 1 : 0) ||
          (a.id < b.id ? -1 : 1),
      );
    const url = (after: string, extra = '', before = '2027-06-01T00:00:00Z') =>
      `/v1/companies/${t.world.company.id}/rate_change_updates?updated_after=${encodeURIComponent(after)}` +
      `&updated_before=${encodeURIComponent(before)}${extra}`;

    const wide = url('2026-01-01T00:00:00Z');
    const all = dataPart({
      rate_change_updates: expected.map((c) => contractRateChange(presentRateChange(c))),
    });
    t.db.queries.length = 0;
    startsWith(await get(wide), all);
    // SQLite walked the ordering index, which carries the listings, and read no row of the table.
    if (dialect === 'sqlite') {
      const page = t.db.queries.filter((q) => q.includes('group_concat'));
      expect(page).toHaveLength(1);
      expect(page[0]).toContain('indexed by "rate_changes_order"');
      expect(page[0]).not.toContain('cross join rate_changes');
    }
    await t.get(wide);
    startsWith(await t.get(wide), all);

    // A later page of a narrower window, and a creator's rows.
    const narrow = expected.filter((c) => c.changedAt >= '2026-04-01T00:00:00.000Z');
    startsWith(
      await get(url('2026-04-01T00:00:00Z', '&per_page=5&page=2')),
      dataPart({
        rate_change_updates: narrow.slice(5, 10).map((c) => contractRateChange(presentRateChange(c))),
      }),
    );
    startsWith(
      await get(url('2026-01-01T00:00:00Z', '&created_by=7')),
      dataPart({
        rate_change_updates: expected
          .filter((c) => c.createdBy === 7)
          .map((c) => contractRateChange(presentRateChange(c))),
      }),
    );

    // The count beside the rows; and with no rows (a page past the matches, a window holding
    // none), still the count.
    const counted: Array<[string, number, number]> = [
      [wide, expected.length, Math.min(expected.length, 500)],
      [url('2026-04-01T00:00:00Z', '&per_page=5&page=2'), narrow.length, 5],
      [url('2026-04-01T00:00:00Z', '&per_page=5&page=999'), narrow.length, 0],
      [url('2026-01-01T00:00:00Z', '', '2026-01-02T00:00:00Z'), 0, 0],
    ];
    for (const [address, total, rows] of counted) {
      const body = JSON.parse((await get(address)).body);
      expect(body.rate_change_updates).toHaveLength(rows);
      expect(body.meta.pagination.total_entries).toBe(total);
    }
    expect(narrow.length).toBeGreaterThan(0);
    expect(expected.some((c) => c.changedAt < '2026-01-02T00:00:00.000Z')).toBe(false);

    // Windows of a few days, read as a merge of each UTC day's rows: a local day that spans two
    // UTC days, three days with a creator, and a later page.
    const within = (after: string, before: string) =>
      expected.filter((c) => c.changedAt >= after && c.changedAt < before);
    const fewDays: Array<
      [string, string, string, (c: (typeof expected)[number]) => boolean, number, number]
    > = [
      ['2026-03-07T22:00:00-05:00', '2026-03-08T22:00:00-05:00', '', () => true, 0, 500],
      ['2026-10-30T00:00:00Z', '2026-11-02T00:00:00Z', '&created_by=7', (c) => c.createdBy === 7, 0, 500],
      ['2026-10-30T00:00:00Z', '2026-11-02T00:00:00Z', '&per_page=3&page=2', () => true, 3, 6],
    ];
    for (const [after, before, extra, keep, from, to] of fewDays) {
      const rows = within(new Date(after).toISOString(), new Date(before).toISOString()).filter(keep);
      expect(rows.slice(from, to).length).toBeGreaterThan(0);
      startsWith(
        await get(url(after, extra, before)),
        dataPart({
          rate_change_updates: rows.slice(from, to).map((c) => contractRateChange(presentRateChange(c))),
        }),
      );
    }
    // Windows of one shape asked one after another with other values (a statement compiled once per
    // shape binds each its own): each answers its own rows and count.
    const sameShapes: Array<[string, string, string, (c: (typeof expected)[number]) => boolean]> = [
      ['2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z', '', () => true],
      ['2026-04-04T00:00:00Z', '2026-04-05T00:00:00Z', '', () => true],
      ['2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', '', () => true],
      ['2026-03-07T07:00:00Z', '2026-03-09T06:00:00Z', '', () => true],
      ['2026-10-31T06:00:00Z', '2026-11-02T05:00:00Z', '', () => true],
      ['2026-03-07T07:00:00Z', '2026-03-09T06:00:00Z', '&created_by=7', (c) => c.createdBy === 7],
      ['2026-10-31T06:00:00Z', '2026-11-02T05:00:00Z', '&created_by=7', (c) => c.createdBy === 7],
    ];
    const answered = new Set<number>();
    for (const [after, before, extra, keep] of sameShapes) {
      const rows = within(new Date(after).toISOString(), new Date(before).toISOString()).filter(keep);
      expect(rows.length).toBeGreaterThan(0);
      answered.add(rows.length);
      const res = await get(url(after, extra, before));
      startsWith(
        res,
        dataPart({ rate_change_updates: rows.map((c) => contractRateChange(presentRateChange(c))) }),
      );
      expect(JSON.parse(res.body).meta.pagination.total_entries).toBe(rows.length);
    }
    // The windows of one shape hold different numbers of rows, so a count bound to another
    // window's values would show.
    expect(answered.size).toBeGreaterThan(1);
    // Those windows were read along the day index, in runs merged (the plan SQLite chose).
    if (dialect === 'sqlite') expect(t.db.queries.some((q) => q.includes('rate_changes_day'))).toBe(true);
  });

  it('keeps each rate change as listed in step with a re-import that renames and moves its facility, tenant and unit', async () => {
    const facility = buildFacility({
      company_id: t.world.company.id,
      name: 'Before Storage',
      time_zone: 'America/New_York',
    });
    const tenant = buildTenant({ facility_id: facility.id, first_name: 'Old', last_name: 'Name' });
    const unit = buildUnit({ facility_id: facility.id, name: 'U-1' });
    const changes = ['2030-07-01T12:00:00Z', '2030-07-01T20:30:00.250Z'].map((changed_at) =>
      buildRateChange({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id, changed_at }),
    );
    await t.load({ facilities: [facility], tenants: [tenant], units: [unit], rate_changes: changes });
    const url =
      `/v1/companies/${t.world.company.id}/rate_change_updates` +
      `?updated_after=2030-07-01T00:00:00Z&updated_before=2030-07-02T00:00:00Z`;
    const page = (facilityName: string, timeZone: string, tenantName: string, unitName: string) =>
      dataPart({
        rate_change_updates: changes.map((change) =>
          contractRateChange(
            presentRateChange({
              id: change.id,
              facilityId: facility.id,
              facilityName,
              timeZone,
              tenantId: tenant.id,
              tenantName,
              unitId: unit.id,
              unitName,
              changedAt: new Date(change.changed_at).toISOString(),
              oldRateCents: Math.round(change.old_rate * 100),
              newRateCents: Math.round(change.new_rate * 100),
              effectiveOnDate: change.effective_on_date,
              createdBy: change.created_by ?? null,
            }),
          ),
        ),
      });
    startsWith(await get(url), page('Before Storage', 'America/New_York', 'Old Name', 'U-1'));
    startsWith(await t.get(url), page('Before Storage', 'America/New_York', 'Old Name', 'U-1'));

    // Only the facility, tenant and unit are imported again; their rate changes are not.
    await t.load({
      facilities: [{ ...facility, name: 'After "Storage"', time_zone: 'Asia/Tokyo' }],
      tenants: [{ ...tenant, first_name: 'Nöu', last_name: 'Name' }],
      units: [{ ...unit, name: 'U-2 😀' }],
    });
    const after = page('After "Storage"', 'Asia/Tokyo', 'Nöu Name', 'U-2 😀');
    expect(after.toString()).toContain('"changed_at":"2030-07-02T05:30:00.250+09:00"');
    startsWith(await get(url), after);
    startsWith(await t.get(url), after);
  });

  it('writes an item page byte for byte as JSON.stringify of the presented items, cold and kept', async () => {
    const facility = buildFacility({ company_id: t.world.company.id, name: 'Items' });
    const kinds = ['retail', 'insurance', 'fee', 'service'] as const;
    const tierSets = [
      [],
      [{ id: '', amount: 12.5, kind: 'amount' as const, limit: null }],
      [
        { id: '', amount: 3, kind: 'percent' as const, limit: 0.1 },
        { id: '', amount: 7.25, kind: 'amount' as const, limit: 1 / 3 },
      ],
    ];
    const items = NAMES.flatMap((name, i) =>
      kinds.map((kind, k) => {
        const taxTotal = [0, 0.8, 1.01][i % 3];
        // A retail item has one tier, and its total is that amount plus tax.
        const retailAmount = [12.5, 0.07, 3][(i + k) % 3];
        const tiers =
          kind === 'retail'
            ? [{ id: '', amount: retailAmount, kind: 'amount' as const, limit: null }]
            : tierSets[(i + k) % 3];
        return buildItem({
          facility_id: facility.id,
          kind,
          description: `${name} ${k}`,
          short_description: i % 2 === 0 ? null : name,
          tax_total: taxTotal,
          total:
            kind === 'retail'
              ? Math.round((retailAmount + taxTotal) * 100) / 100
              : [10.8, 42, 0.07][(i + k) % 3],
          invoiceable_amounts: tiers.map((tier) => ({ ...tier, id: randomUUID() })),
          ...(kind === 'insurance' ? { coverage_percentage: 2 / 3, provider_name: name } : {}),
          ...(kind === 'retail' ? { quantity: i, is_rental_center_lock: i % 2 === 0 } : {}),
        });
      }),
    );
    await t.load({ facilities: [facility], invoiceable_items: items });

    const priced: PricedItem[] = items
      .map((source) => {
        const item: InvoiceableItem = {
          id: source.id,
          facilityId: facility.id,
          kind: source.kind,
          productCode: source.product_code,
          description: source.description,
          shortDescription: source.short_description ?? null,
          requiredAtMoveIn: source.required_at_move_in ?? false,
          requiredAtTransfer: source.required_at_transfer ?? false,
          showInSalesCenter: source.show_in_sales_center ?? true,
          taxTotalCents: Math.round(source.tax_total * 100),
          totalCents: Math.round(source.total * 100),
          feeCategory: source.kind === 'fee' ? (source.fee_category ?? 'other') : null,
          coverageAmountCents:
            source.coverage_amount == null ? null : Math.round(source.coverage_amount * 100),
          coveragePercentage: source.coverage_percentage ?? null,
          providerName: source.provider_name ?? null,
          providerKey: source.provider_key ?? null,
          quantity: source.quantity ?? null,
          isRentalCenterLock: source.is_rental_center_lock ?? false,
          rentalCenterEligible: source.rental_center_eligible ?? false,
        };
        const tiers = (source.invoiceable_amounts ?? []).map((tier, position) => ({
          id: tier.id,
          invoiceableItemId: source.id,
          position,
          kind: tier.kind,
          amountCents: Math.round(tier.amount * 100),
          limitValue: tier.limit ?? null,
        }));
        return { item, tiers };
      })
      .sort(
        (a, b) =>
          byBytes(a.item.kind, b.item.kind) ||
          byBytes(a.item.description, b.item.description) ||
          (a.item.id < b.item.id ? -1 : 1),
      );
    const serialize = (entries: PricedItem[]) =>
      dataPart({
        invoiceable_items: entries.map((p) => contractItemOfView(presentInvoiceableItem(p))),
      });

    const list = `/v1/${facility.id}/invoiceable_items`;
    startsWith(await get(list), serialize(priced));
    await t.get(list);
    startsWith(await t.get(list), serialize(priced));
    startsWith(await get(`${list}?per_page=4&page=3`), serialize(priced.slice(8, 12)));
    startsWith(await get(`${list}/insurance`), serialize(priced.filter((p) => p.item.kind === 'insurance')));
    // The count beside the rows, and past the last page (no rows) still the count.
    for (const [page, rows] of [
      ['?per_page=4&page=3', 4],
      ['?per_page=4&page=99', 0],
    ] as const) {
      const body = JSON.parse((await get(`${list}${page}`)).body);
      expect(body.invoiceable_items).toHaveLength(rows);
      expect(body.meta.pagination.total_entries).toBe(priced.length);
    }

    // A retail item's quantity is read from its column, whoever writes it (a sale takes stock
    // with one UPDATE of it); its listing is kept either side of the quantity.
    const retail = priced.filter((p) => p.item.kind === 'retail');
    await t.db.store.db
      .updateTable('invoiceable_items')
      .set({ quantity: 12345 })
      .where('id', '=', retail[1].item.id)
      .execute();
    await t.db.store.db
      .updateTable('invoiceable_items')
      .set({ quantity: null })
      .where('id', '=', retail[2].item.id)
      .execute();
    const sold = retail.map((p, i) =>
      i === 0
        ? p
        : { ...p, item: { ...p.item, quantity: i === 1 ? 12345 : i === 2 ? null : p.item.quantity } },
    );
    const retailPage = serialize(sold);
    expect(retailPage.toString()).toContain('"quantity":12345,');
    expect(retailPage.toString()).toContain('"quantity":null,');
    startsWith(await get(`${list}/retail`), retailPage);
    startsWith(await t.get(`${list}/retail`), retailPage);
  });
});
