import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DatasetRateChange } from '../../../src/store/dataset/dataset.types';
import {
  choosePagePlan,
  MAX_DAY_RUNS,
  splitDays,
  splitWindow,
  utcDays,
} from '../../../src/areas/rate-changes/rate-changes.repository';
import { buildFacility, buildRateChange, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';

/** GET with the world's bearer token: the query string goes through exactly as written. */
function bearerGet(t: TestApp, url: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
  });
}

const query = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

describeEachDialect('GET /v1/companies/:company_id/rate_change_updates', (dialect) => {
  let t: TestApp;
  let base: string;
  const wide = { updated_after: '2026-01-01T00:00:00Z', updated_before: '2027-01-01T00:00:00Z' };

  // Facility names sort byte-wise on their lower-cased form: "adam..." < "zed..." < "émile...".
  const fAdam = { id: randomUUID(), name: 'adam Lockers', time_zone: 'Europe/Paris' };
  const fZed = { id: randomUUID(), name: 'Zed Storage', time_zone: 'America/New_York' };
  const fEmile = { id: randomUUID(), name: 'émile Entrepôt', time_zone: 'UTC' };
  const tenants = {
    adamLower: { id: randomUUID(), facility_id: fAdam.id, first_name: 'adam', last_name: 'Smith' },
    adamUpper: { id: randomUUID(), facility_id: fAdam.id, first_name: 'Adam', last_name: 'SMITH' },
    zoe: { id: randomUUID(), facility_id: fAdam.id, first_name: 'Zoë', last_name: 'Quinn' },
    emile: { id: randomUUID(), facility_id: fAdam.id, first_name: 'Émile', last_name: 'Zola' },
    bob: { id: randomUUID(), facility_id: fZed.id, first_name: 'Bob', last_name: 'Brown' },
    carl: { id: randomUUID(), facility_id: fEmile.id, first_name: 'carl', last_name: 'Cole' },
  };
  const units = {
    adam: { id: randomUUID(), facility_id: fAdam.id, name: 'A-1' },
    zed: { id: randomUUID(), facility_id: fZed.id, name: 'Z-9' },
    emile: { id: randomUUID(), facility_id: fEmile.id, name: 'É-3' },
  };
  const ids = {
    adamLate: '11111111-1111-4111-8111-111111111111',
    adamUpperEarly: randomUUID(),
    adamUpperTie: '00000000-0000-4000-8000-000000000001',
    zoe: randomUUID(),
    emile: randomUUID(),
    bob: randomUUID(),
    carl: randomUUID(),
    foreign: randomUUID(),
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const companyId = t.world.company.id;
    base = `/v1/companies/${companyId}/rate_change_updates`;
    const foreignTenant = buildTenant({ facility_id: t.world.otherFacility.id });
    const foreignUnit = buildUnit({ facility_id: t.world.otherFacility.id });
    const change = (
      o: Partial<DatasetRateChange> & { facility_id: string; tenant_id: string; unit_id: string },
    ) => buildRateChange({ old_rate: 100, new_rate: 110.5, effective_on_date: '2026-04-01', ...o });
    await t.load({
      facilities: [fAdam, fZed, fEmile].map((f) => buildFacility({ company_id: companyId, ...f })),
      tenants: [...Object.values(tenants).map((o) => buildTenant(o)), foreignTenant],
      units: [...Object.values(units).map((o) => buildUnit(o)), foreignUnit],
      // Listed out of order on purpose.
      rate_changes: [
        change({
          id: ids.bob,
          facility_id: fZed.id,
          tenant_id: tenants.bob.id,
          unit_id: units.zed.id,
          changed_at: '2026-03-12T00:00:00Z',
          created_by: 7,
        }),
        change({
          id: ids.adamLate,
          facility_id: fAdam.id,
          tenant_id: tenants.adamLower.id,
          unit_id: units.adam.id,
          changed_at: '2026-03-10T10:00:00Z',
          created_by: 7,
          old_rate: 89.99,
          new_rate: 95,
        }),
        change({
          id: ids.carl,
          facility_id: fEmile.id,
          tenant_id: tenants.carl.id,
          unit_id: units.emile.id,
          changed_at: '2026-03-09T12:00:00.250Z',
        }),
        change({
          id: ids.emile,
          facility_id: fAdam.id,
          tenant_id: tenants.emile.id,
          unit_id: units.adam.id,
          changed_at: '2026-03-11T23:59:59.999Z',
          created_by: 8,
        }),
        change({
          id: ids.adamUpperTie,
          facility_id: fAdam.id,
          tenant_id: tenants.adamUpper.id,
          unit_id: units.adam.id,
          changed_at: '2026-03-10T11:00:00+01:00',
        }),
        change({
          id: ids.zoe,
          facility_id: fAdam.id,
          tenant_id: tenants.zoe.id,
          unit_id: units.adam.id,
          changed_at: '2026-03-09T00:00:00Z',
          created_by: 7,
        }),
        change({
          id: ids.adamUpperEarly,
          facility_id: fAdam.id,
          tenant_id: tenants.adamUpper.id,
          unit_id: units.adam.id,
          changed_at: '2026-03-10T09:00:00Z',
        }),
        change({
          id: ids.foreign,
          facility_id: t.world.otherFacility.id,
          tenant_id: foreignTenant.id,
          unit_id: foreignUnit.id,
          changed_at: '2026-03-10T10:00:00Z',
          created_by: 7,
        }),
      ],
    });
  });
  afterAll(() => t.close());

  const idsOf = (body: { rate_change_updates: Array<{ id: string }> }) =>
    body.rate_change_updates.map((r) => r.id);
  const allInOrder = () => [
    ids.adamUpperEarly,
    ids.adamUpperTie,
    ids.adamLate,
    ids.zoe,
    ids.emile,
    ids.bob,
    ids.carl,
  ];

  it('lists the company’s rate changes in the contract’s order with every field and the full meta', async () => {
    const url = `${base}?${query(wide)}`;
    const res = await t.get(url, { 'x-request-id': 'rcu-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['rate_change_updates', 'meta']);
    expect(idsOf(body)).toEqual(allInOrder());
    expect(body.rate_change_updates[2]).toEqual({
      id: ids.adamLate,
      facility_name: 'adam Lockers',
      tenant_id: tenants.adamLower.id,
      tenant_name: 'adam Smith',
      unit_id: units.adam.id,
      unit_name: 'A-1',
      changed_at: '2026-03-10T11:00:00+01:00',
      old_rate: 89.99,
      new_rate: 95,
      effective_on_date: '2026-04-01',
    });
    expect(Object.keys(body.rate_change_updates[0])).toEqual([
      'id',
      'facility_name',
      'tenant_id',
      'tenant_name',
      'unit_id',
      'unit_name',
      'changed_at',
      'old_rate',
      'new_rate',
      'effective_on_date',
    ]);
    // Each changed_at in its own facility's zone.
    expect(body.rate_change_updates.map((r: { changed_at: string }) => r.changed_at)).toEqual([
      '2026-03-10T10:00:00+01:00',
      '2026-03-10T11:00:00+01:00',
      '2026-03-10T11:00:00+01:00',
      '2026-03-09T01:00:00+01:00',
      '2026-03-12T00:59:59.999+01:00',
      '2026-03-11T20:00:00-04:00',
      '2026-03-09T12:00:00.250+00:00',
    ]);
    expect(body.rate_change_updates.map((r: { tenant_name: string }) => r.tenant_name)).toEqual([
      'Adam SMITH',
      'Adam SMITH',
      'adam Smith',
      'Zoë Quinn',
      'Émile Zola',
      'Bob Brown',
      'carl Cole',
    ]);
    expect(body.meta).toEqual({
      pagination: {
        current_page: 1,
        total_pages: 1,
        per_page: 500,
        total_entries: 7,
        previous_page: null,
        next_page: null,
      },
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'GET',
      request_id: 'rcu-1',
      parameters: { ...wide, page: 1, per_page: 500, company_id: t.world.company.id },
      filters: {},
      sorting: null,
      search_term: null,
    });
    expect(Object.keys(body.meta)).toEqual([
      'pagination',
      'status_code',
      'status_message',
      'status_cat',
      'request_method',
      'request_id',
      'parameters',
      'filters',
      'sorting',
      'search_term',
    ]);
  });

  it('includes changed_at == updated_after and excludes changed_at == updated_before, across offsets', async () => {
    // 2026-03-10T10:00:00Z and 2026-03-12T00:00:00Z written in two other zones.
    const window = {
      updated_after: '2026-03-10T05:00:00-05:00',
      updated_before: '2026-03-12T01:00:00+01:00',
    };
    const res = await t.get(`${base}?${query(window)}`);
    expect(res.statusCode).toBe(200);
    expect(idsOf(res.json())).toEqual([ids.adamUpperTie, ids.adamLate, ids.emile]);
    expect(res.json().meta.pagination.total_entries).toBe(3);

    const justAfter = {
      updated_after: '2026-03-10T10:00:00.001Z',
      updated_before: '2026-03-12T00:00:00.001Z',
    };
    const later = await t.get(`${base}?${query(justAfter)}`);
    expect(idsOf(later.json())).toEqual([ids.emile, ids.bob]);
  });

  it('rounds a bound finer than a millisecond so that it still compares exactly', async () => {
    // 23:59:59.9995 lies after the row at 23:59:59.999, so that row is outside an updated_after of it.
    const res = await t.get(
      `${base}?${query({ updated_after: '2026-03-11T23:59:59.9995Z', updated_before: '2026-03-12T00:00:00.0001Z' })}`,
    );
    expect(idsOf(res.json())).toEqual([ids.bob]);
    const before = await t.get(
      `${base}?${query({ updated_after: '2026-03-11T23:59:59.9985Z', updated_before: '2026-03-11T23:59:59.9991Z' })}`,
    );
    expect(idsOf(before.json())).toEqual([ids.emile]);
  });

  it('reads a space where the offset’s + stood, as an unencoded + arrives', async () => {
    const raw = `${base}?updated_after=2026-03-10T11:00:00+01:00&updated_before=2026-03-12T01:00:00+01:00`;
    const res = await bearerGet(t, raw);
    expect(res.statusCode).toBe(200);
    expect(idsOf(res.json())).toEqual([ids.adamUpperTie, ids.adamLate, ids.emile]);
    // The echo shows the parameters as received.
    expect(res.json().meta.parameters.updated_after).toBe('2026-03-10T11:00:00 01:00');
    const encoded = await bearerGet(
      t,
      `${base}?updated_after=2026-03-10T11:00:00%2B0100&updated_before=2026-03-12T01:00:00%2B01:00`,
    );
    expect(idsOf(encoded.json())).toEqual([ids.adamUpperTie, ids.adamLate, ids.emile]);
  });

  it('accepts Z and z, and an equal pair of bounds gives an empty page', async () => {
    const z = await t.get(
      `${base}?${query({ updated_after: '2026-03-09t00:00:00z', updated_before: '2026-03-09T12:00:00Z' })}`,
    );
    expect(idsOf(z.json())).toEqual([ids.zoe]);
    const empty = await t.get(
      `${base}?${query({ updated_after: wide.updated_after, updated_before: wide.updated_after })}`,
    );
    expect(empty.statusCode).toBe(200);
    expect(empty.json().rate_change_updates).toEqual([]);
    expect(empty.json().meta.pagination).toEqual({
      current_page: 1,
      total_pages: 1,
      per_page: 500,
      total_entries: 0,
      previous_page: null,
      next_page: null,
    });
  });

  it('filters by created_by and echoes the filter as a number', async () => {
    const res = await t.get(`${base}?${query({ ...wide, created_by: '7' })}`);
    expect(res.statusCode).toBe(200);
    expect(idsOf(res.json())).toEqual([ids.adamLate, ids.zoe, ids.bob]);
    expect(res.json().meta.filters).toEqual({ created_by: 7 });
    expect(res.json().meta.parameters.created_by).toBe('7');
    expect(res.json().meta.pagination.total_entries).toBe(3);

    const none = await t.get(`${base}?${query({ ...wide, created_by: '-3' })}`);
    expect(none.json().rate_change_updates).toEqual([]);
    expect(none.json().meta.filters).toEqual({ created_by: -3 });
    expect(none.json().meta.pagination.total_entries).toBe(0);
  });

  it('pages as will_paginate does, with per_page above 2000 read as 2000', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.get(`${base}?${query({ ...wide, per_page: '3', page: String(page) })}`);
      pages.push(res.json());
    }
    expect(pages.flatMap(idsOf)).toEqual(allInOrder());
    expect(pages.map((p) => p.meta.pagination)).toEqual([
      { current_page: 1, total_pages: 3, per_page: 3, total_entries: 7, previous_page: null, next_page: 2 },
      { current_page: 2, total_pages: 3, per_page: 3, total_entries: 7, previous_page: 1, next_page: 3 },
      { current_page: 3, total_pages: 3, per_page: 3, total_entries: 7, previous_page: 2, next_page: null },
    ]);
    expect(pages[0].meta.parameters).toEqual({
      ...wide,
      per_page: '3',
      page: '1',
      company_id: t.world.company.id,
    });

    const past = await t.get(`${base}?${query({ ...wide, per_page: '3', page: '4' })}`);
    expect(past.statusCode).toBe(200);
    expect(past.json().rate_change_updates).toEqual([]);
    expect(past.json().meta.pagination).toEqual({
      current_page: 4,
      total_pages: 3,
      per_page: 3,
      total_entries: 7,
      previous_page: 3,
      next_page: null,
    });

    const exact = await t.get(`${base}?${query({ ...wide, per_page: '7' })}`);
    expect(exact.json().meta.pagination).toMatchObject({ total_pages: 1, next_page: null });
    expect(exact.json().meta.parameters).toMatchObject({ per_page: '7', page: 1 });

    const big = await t.get(`${base}?${query({ ...wide, per_page: '5000' })}`);
    expect(big.json().meta.pagination.per_page).toBe(2000);
    expect(big.json().meta.parameters.per_page).toBe('5000');
    expect(idsOf(big.json())).toEqual(allInOrder());

    // However many digits: read as 2000 too.
    const huge = await t.get(`${base}?${query({ ...wide, per_page: '1'.repeat(20) })}`);
    expect(huge.statusCode).toBe(200);
    expect(huge.json().meta.pagination.per_page).toBe(2000);
  });

  it('answers 400/4 naming each missing bound', async () => {
    const res = await t.get(base);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({
      status_code: 400,
      error_code: 4,
      errors: [
        { parameter: 'updated_after', message: 'is required' },
        { parameter: 'updated_before', message: 'is required' },
      ],
    });
    expect(res.json().meta.message).toMatch(/updated_after/);
    const one = await t.get(`${base}?${query({ updated_after: wide.updated_after })}`);
    expect(one.statusCode).toBe(400);
    expect(one.json().meta.errors).toEqual([{ parameter: 'updated_before', message: 'is required' }]);
  });

  it.each([
    ['no offset', '2026-03-10T10:00:00'],
    ['a date only', '2026-03-10'],
    ['an impossible date', '2026-02-30T10:00:00Z'],
    ['an impossible time', '2026-03-10T24:00:00Z'],
    ['an impossible offset', '2026-03-10T10:00:00+24:00'],
    ['a malformed value', 'yesterday'],
    ['an empty value', ''],
    ['a number', '1767225600'],
    ['a quote and SQL', "2026-03-10T10:00:00Z' OR '1'='1"],
    ['a SQL fragment', '2026-03-10T10:00:00Z; drop table rate_changes; --'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['a year past 9999 in UTC', '9999-12-31T23:00:00-05:00'],
    ['a 10,000-character string', '2'.repeat(10_000)],
  ])('answers 400/4 naming updated_after for %s, and writes nothing', async (_label, value) => {
    const res = await t.get(`${base}?${query({ ...wide, updated_after: value })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'updated_after' }] });
    const before = await t.get(`${base}?${query({ ...wide, updated_before: value })}`);
    expect(before.statusCode).toBe(400);
    expect(before.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'updated_before' }] });
    const rows = await t.db.store.db.selectFrom('rate_changes').select('id').execute();
    expect(rows).toHaveLength(8);
  });

  it('reads bounds in the years 0000 to 0099 as those years, and says why a bound past 9999 is refused', async () => {
    const early = await t.get(
      `${base}?${query({ updated_after: '0001-01-01T00:00:00Z', updated_before: '0099-12-31T00:00:00Z' })}`,
    );
    expect(early.statusCode).toBe(200);
    expect(early.json().rate_change_updates).toEqual([]);
    const since = await t.get(`${base}?${query({ ...wide, updated_after: '0099-01-01T00:00:00Z' })}`);
    expect(idsOf(since.json())).toEqual(allInOrder());
    const past = await t.get(`${base}?${query({ ...wide, updated_before: '9999-12-31T23:00:00-05:00' })}`);
    expect(past.json().meta.errors).toEqual([
      { parameter: 'updated_before', message: 'must fall within the years 0000 to 9999 once in UTC' },
    ]);
  });

  it('answers 400/4 for a bound given as an array or a hash', async () => {
    for (const shape of ['updated_after[]=2026-01-01T00:00:00Z', 'updated_after[x]=2026-01-01T00:00:00Z']) {
      const res = await t.get(`${base}?${shape}&updated_before=2027-01-01T00:00:00Z`);
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'updated_after' }] });
    }
  });

  it('answers 400/4 for updated_after later than updated_before', async () => {
    const res = await t.get(
      `${base}?${query({ updated_after: '2026-03-10T10:00:00Z', updated_before: '2026-03-10T09:59:59.999Z' })}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({
      error_code: 4,
      errors: [{ parameter: 'updated_after', message: 'must not be later than updated_before' }],
    });
  });

  it.each([
    ['abc'],
    ['1.5'],
    ['7 '],
    ['0x10'],
    ['1e3'],
    [''],
    ['2147483648'],
    ['-2147483649'],
    ['99999999999999999999'],
    ["7' OR 1=1"],
  ])('answers 400/4 naming created_by for %p', async (value) => {
    const res = await t.get(`${base}?${query({ ...wide, created_by: value })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'created_by' }] });
  });

  it.each([
    ['per_page', '0'],
    ['per_page', '-1'],
    ['per_page', 'ten'],
    ['per_page', '2.5'],
    ['page', '0'],
    ['page', '-2'],
    ['page', 'last'],
    ['page', '9'.repeat(30)],
  ])('answers 400/4 naming %s for %p', async (parameter, value) => {
    const res = await t.get(`${base}?${query({ ...wide, [parameter]: value })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter }] });
  });

  it('names every bad parameter at once', async () => {
    const res = await t.get(`${base}?${query({ updated_after: 'x', created_by: 'y', per_page: '0' })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual([
      'updated_after',
      'updated_before',
      'created_by',
      'per_page',
    ]);
  });

  it('answers 401/2 without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${base}?${query(wide)}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
  });

  it('answers 403/13 for another company', async () => {
    const res = await t.get(`/v1/companies/${t.world.otherCompany.id}/rate_change_updates?${query(wide)}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta.error_code).toBe(13);
  });

  it.each([
    ['an unknown id', randomUUID()],
    ['a malformed id', "1'%20OR%20'1'='1"],
    ['a very long id', 'x'.repeat(3000)],
  ])('answers 404/9 naming company_id for %s', async (_label, id) => {
    const res = await t.get(`/v1/companies/${id}/rate_change_updates?${query(wide)}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'company_id' }] });
  });

  it('finds the company by an upper-case id', async () => {
    const res = await t.get(
      `/v1/companies/${t.world.company.id.toUpperCase()}/rate_change_updates?${query(wide)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(idsOf(res.json())).toEqual(allInOrder());
  });

  it('reads rate changes by id in key order, null for a missing id (batch shape)', async () => {
    const missing = randomUUID();
    const found = await t.services.rateChanges.rateChangesByIds([ids.bob, missing, ids.adamLate, ids.bob]);
    expect(found.map((c) => c?.id ?? null)).toEqual([ids.bob, null, ids.adamLate, ids.bob]);
    expect(found[2]).toMatchObject({
      facilityName: 'adam Lockers',
      tenantName: 'adam Smith',
      unitName: 'A-1',
      changedAt: '2026-03-10T10:00:00.000Z',
      timeZone: 'Europe/Paris',
      oldRateCents: 8999,
      newRateCents: 9500,
      createdBy: 7,
    });
    expect(await t.services.rateChanges.rateChangesByIds([])).toEqual([]);
  });

  it('answers 405 for another method', async () => {
    const res = await t.app.inject({ method: 'POST', url: base });
    expect(res.statusCode).toBe(405);
  });
});

describeEachDialect('rate change updates: counts and pages against an oracle', (dialect) => {
  let t: TestApp;
  let base: string;
  let facilityId: string;
  const tenantIds: string[] = [];
  let unitId: string;
  let rows: Array<{ id: string; tenant: number; changedAt: string; createdBy: number | null }>;

  const instants = [
    '2026-03-01T00:00:00.000Z',
    '2026-03-01T06:30:00.000Z',
    '2026-03-01T23:59:59.999Z',
    '2026-03-02T00:00:00.000Z',
    '2026-03-02T11:59:59.999Z',
    '2026-03-02T12:00:00.000Z',
    '2026-03-02T23:00:00.000Z',
    '2026-03-03T00:00:00.000Z',
    '2026-03-03T00:00:00.001Z',
    '2026-03-03T05:00:00.000Z',
    '2026-03-04T12:00:00.000Z',
    '2026-03-05T05:59:59.999Z',
    '2026-03-05T06:00:00.000Z',
    '2026-03-06T00:00:00.000Z',
    '2026-03-07T18:00:00.000Z',
    '2026-03-08T23:59:59.999Z',
    // Other months, for windows counted by whole months.
    '2026-01-15T08:00:00.000Z',
    '2026-01-31T23:59:59.999Z',
    '2026-02-01T00:00:00.000Z',
    '2026-02-14T12:00:00.000Z',
    '2026-04-01T00:00:00.000Z',
    '2026-04-20T10:00:00.000Z',
  ];
  const tenantNames = ['Ann Alder', 'ann alder', 'Bea Birch', 'Cy Cedar'];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    facilityId = t.world.facility.id;
    base = `/v1/companies/${t.world.company.id}/rate_change_updates`;
    const tenants = tenantNames.map((name) => {
      const [first_name, last_name] = name.split(' ');
      return buildTenant({ facility_id: facilityId, first_name, last_name });
    });
    tenantIds.push(...tenants.map((x) => x.id));
    const unit = buildUnit({ facility_id: facilityId });
    unitId = unit.id;
    rows = [];
    instants.forEach((changedAt, i) => {
      for (let tenant = 0; tenant < tenants.length; tenant++) {
        if ((i + tenant) % 3 === 0) continue;
        rows.push({ id: randomUUID(), tenant, changedAt, createdBy: [null, 1, 2][(i * 7 + tenant) % 3] });
      }
    });
    await t.load({ tenants, units: [unit], rate_changes: rows.map(toRecord) });
  });
  afterAll(() => t.close());

  const toRecord = (r: (typeof rows)[number]) =>
    buildRateChange({
      id: r.id,
      facility_id: facilityId,
      tenant_id: tenantIds[r.tenant],
      unit_id: unitId,
      changed_at: r.changedAt,
      created_by: r.createdBy,
    });

  /** The contract's order for this data: tenant sort key (ASCII, so JS order is byte order), changed_at, id. */
  function expected(after: string, before: string, createdBy: number | null): string[] {
    const key = (r: (typeof rows)[number]) => tenantNames[r.tenant].toLowerCase();
    return rows
      .filter(
        (r) =>
          r.changedAt >= after && r.changedAt < before && (createdBy === null || r.createdBy === createdBy),
      )
      .sort((a, b) =>
        key(a) !== key(b)
          ? key(a) < key(b)
            ? -1
            : 1
          : a.changedAt !== b.changedAt
            ? a.changedAt < b.changedAt
              ? -1
              : 1
            : a.id < b.id
              ? -1
              : 1,
      )
      .map((r) => r.id);
  }

  const windows: Array<[string, string]> = [
    ['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'], // everything
    ['2026-03-02T00:00:00.000Z', '2026-03-05T00:00:00.000Z'], // whole days only
    ['2026-03-02T12:00:00.000Z', '2026-03-05T06:00:00.000Z'], // cuts a day at each end
    ['2026-03-01T23:59:59.999Z', '2026-03-03T00:00:00.001Z'], // one millisecond into each edge day
    ['2026-03-03T00:00:00.001Z', '2026-03-03T05:00:00.000Z'], // inside one day
    ['2026-03-02T23:00:00.000Z', '2026-03-03T01:00:00.000Z'], // across one midnight, no whole day
    ['2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'], // exactly one day
    ['2026-03-05T06:00:00.000Z', '2026-03-05T06:00:00.000Z'], // empty
    ['2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'], // before all rows
    ['2026-04-21T00:00:00.000Z', '2026-06-01T00:00:00.000Z'], // after all rows
    ['2026-02-28T19:00:00.000Z', '2026-03-08T19:00:00.000Z'], // local midnights in New York
    ['2026-03-09T00:00:00.000Z', '2026-04-01T00:00:00.000Z'], // no row, up to a row at its end
    ['2026-01-15T08:00:00.000Z', '2026-04-20T10:00:00.000Z'], // partial days, runs of days, whole months
    ['2026-02-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'], // whole months only
    ['2026-01-31T00:00:00.000Z', '2026-03-02T00:00:00.000Z'], // a day, a whole month, a day
    ['2026-02-02T00:00:00.000Z', '2026-02-28T00:00:00.000Z'], // days inside one month
    ['2025-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'], // the months before March, empty ones too
  ];

  async function checkWindows() {
    for (const [after, before] of windows) {
      for (const createdBy of [null, 1, 2]) {
        const params: Record<string, string> = {
          updated_after: after,
          updated_before: before,
          per_page: '2000',
        };
        if (createdBy !== null) params.created_by = String(createdBy);
        const res = await t.get(`${base}?${query(params)}`);
        expect(res.statusCode).toBe(200);
        const want = expected(after, before, createdBy);
        expect({ after, before, createdBy, ids: idsOfBody(res.json()) }).toEqual({
          after,
          before,
          createdBy,
          ids: want,
        });
        expect(res.json().meta.pagination.total_entries).toBe(want.length);
      }
    }
  }
  const idsOfBody = (body: { rate_change_updates: Array<{ id: string }> }) =>
    body.rate_change_updates.map((r) => r.id);

  it('counts and orders exactly for windows that cut day buckets, with and without created_by', async () => {
    await checkWindows();
  });

  it('gives the same pages walking page by page as in one page, for dense and sparse windows', async () => {
    for (const [after, before] of [windows[0], windows[4], windows[2]]) {
      for (const createdBy of [null, 2]) {
        const want = expected(after, before, createdBy);
        const got: string[] = [];
        for (let page = 1; page <= Math.ceil(want.length / 4) + 1; page++) {
          const params: Record<string, string> = {
            updated_after: after,
            updated_before: before,
            per_page: '4',
            page: String(page),
          };
          if (createdBy !== null) params.created_by = String(createdBy);
          const body = (await t.get(`${base}?${query(params)}`)).json();
          expect(body.meta.pagination.total_entries).toBe(want.length);
          got.push(...idsOfBody(body));
        }
        expect(got).toEqual(want);
      }
    }
  });

  it('keeps counts exact when a re-import moves rows between days and creators, and when rows are deleted', async () => {
    const moved = rows.slice(0, 12).map((r, i) => ({
      ...r,
      changedAt: instants[(i * 5) % instants.length],
      createdBy: i % 2 === 0 ? null : 2,
    }));
    await t.load({ rate_changes: moved.map(toRecord) });
    rows.splice(0, 12, ...moved);
    await checkWindows();

    const gone = rows.slice(20, 26).map((r) => r.id);
    await t.db.store.db.deleteFrom('rate_changes').where('id', 'in', gone).execute();
    rows = rows.filter((r) => !gone.includes(r.id));
    await checkWindows();

    // The kept counts per day and per month are the rows' own.
    const buckets = [
      ['rate_change_daily_counts', 'day', 10],
      ['rate_change_monthly_counts', 'month', 7],
    ] as const;
    for (const [table, bucket, length] of buckets) {
      const kept = await sql<{ company_id: string; bucket: string; entries: number }>`
        select company_id, ${sql.ref(bucket)} as bucket, entries from ${sql.table(table)}
        where entries <> 0 order by bucket`.execute(t.db.store.db);
      const truth = await sql<{ company_id: string; bucket: string; entries: number }>`
        select company_id, substr(changed_at, 1, ${sql.lit(length)}) as bucket, count(*) as entries
        from rate_changes group by company_id, substr(changed_at, 1, ${sql.lit(length)}) order by bucket`.execute(
        t.db.store.db,
      );
      const counted = (rows: Array<{ entries: number }>) =>
        rows.map((r) => ({ ...r, entries: Number(r.entries) }));
      expect({ table, rows: counted(kept.rows) }).toEqual({ table, rows: counted(truth.rows) });
    }
  });

  it('moves the counts with a facility that changes company', async () => {
    const other = t.world.otherCompany.id;
    await t.load({ facilities: [{ ...t.world.facility, company_id: other, name: 'Main Street' }] });
    const res = await t.get(
      `${base}?${query({ updated_after: windows[0][0], updated_before: windows[0][1] })}`,
    );
    expect(res.json().meta.pagination.total_entries).toBe(0);
    expect(res.json().rate_change_updates).toEqual([]);
    for (const table of ['rate_change_daily_counts', 'rate_change_monthly_counts']) {
      const counts = await sql<{ company_id: string; entries: number }>`
        select company_id, sum(entries) as entries from ${sql.table(table)} group by company_id`.execute(
        t.db.store.db,
      );
      const byCompany = Object.fromEntries(counts.rows.map((r) => [r.company_id, Number(r.entries)]));
      expect({ table, entries: byCompany[other] }).toEqual({ table, entries: rows.length });
      expect({ table, entries: byCompany[t.world.company.id] ?? 0 }).toEqual({ table, entries: 0 });
    }
  });
});

describe('rate change window arithmetic', () => {
  it('splits a window into whole UTC days and two partial edges', () => {
    expect(splitWindow('2026-03-02T12:00:00.000Z', '2026-03-05T06:00:00.000Z')).toEqual({
      days: ['2026-03-03', '2026-03-05'],
      head: ['2026-03-02T12:00:00.000Z', '2026-03-03T00:00:00.000Z'],
      tail: ['2026-03-05T00:00:00.000Z', '2026-03-05T06:00:00.000Z'],
    });
    expect(splitWindow('2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z')).toEqual({
      days: ['2026-03-02', '2026-03-03'],
      head: ['2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      tail: ['2026-03-03T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
    });
    expect(splitWindow('2026-03-02T23:00:00.000Z', '2026-03-03T01:00:00.000Z')).toEqual({
      days: null,
      head: ['2026-03-02T23:00:00.000Z', '2026-03-03T01:00:00.000Z'],
      tail: null,
    });
    expect(splitWindow('9999-12-31T12:00:00.000Z', '9999-12-31T23:59:59.999Z').days).toBeNull();
  });

  it('walks the ordering index when matches are dense and sorts the window when they are few', () => {
    const company = 1_000_000;
    // Windows of many days, whose runs would not be merged.
    const wide = MAX_DAY_RUNS + 1;
    expect(
      choosePagePlan({ entries: company, windowEntries: company, companyEntries: company }, 500, false, 731),
    ).toBe('ordering');
    expect(
      choosePagePlan({ entries: 1_700, windowEntries: 1_700, companyEntries: company }, 500, false, wide),
    ).toBe('window');
    expect(
      choosePagePlan({ entries: 40_000, windowEntries: 900_000, companyEntries: company }, 500, true, wide),
    ).toBe('ordering');
    expect(
      choosePagePlan({ entries: 300, windowEntries: 10_000, companyEntries: company }, 300, true, wide),
    ).toBe('window');
  });

  it('merges the runs of a window of a few days instead of sorting it', () => {
    const company = 1_000_000;
    // A day, and a week, of a large company.
    expect(
      choosePagePlan({ entries: 1_400, windowEntries: 1_400, companyEntries: company }, 500, false, 1),
    ).toBe('days');
    expect(
      choosePagePlan({ entries: 10_000, windowEntries: 10_000, companyEntries: company }, 500, false, 7),
    ).toBe('days');
    // The whole history lies in the ordering index's order already.
    expect(
      choosePagePlan({ entries: company, windowEntries: company, companyEntries: company }, 500, false, 31),
    ).toBe('ordering');
  });

  it('counts whole UTC months from the monthly table and the days around them from the daily one', () => {
    expect(splitDays('2026-01-15', '2026-04-20')).toEqual({
      months: ['2026-02', '2026-04'],
      days: [
        ['2026-01-15', '2026-02-01'],
        ['2026-04-01', '2026-04-20'],
      ],
    });
    expect(splitDays('2026-02-01', '2026-04-01')).toEqual({ months: ['2026-02', '2026-04'], days: [] });
    expect(splitDays('2000-01-01', '2100-01-01')).toEqual({ months: ['2000-01', '2100-01'], days: [] });
    // Years 0 to 99 are those years (Date.UTC would read them as 1900 to 1999).
    expect(splitDays('0050-01-15', '0060-01-01')).toEqual({
      months: ['0050-02', '0060-01'],
      days: [['0050-01-15', '0050-02-01']],
    });
    // A year's turn.
    expect(splitDays('2025-12-31', '2026-02-01')).toEqual({
      months: ['2026-01', '2026-02'],
      days: [['2025-12-31', '2026-01-01']],
    });
    // No whole month: the days alone.
    expect(splitDays('2026-02-02', '2026-02-28')).toEqual({
      months: null,
      days: [['2026-02-02', '2026-02-28']],
    });
    expect(splitDays('2026-01-31', '2026-02-02')).toEqual({
      months: null,
      days: [['2026-01-31', '2026-02-02']],
    });
    expect(splitDays('9999-12-02', '9999-12-31')).toEqual({
      months: null,
      days: [['9999-12-02', '9999-12-31']],
    });
  });

  it('names the UTC days a window touches', () => {
    expect(utcDays('2026-03-02T12:00:00.000Z', '2026-03-04T00:00:00.000Z')).toEqual([
      '2026-03-02',
      '2026-03-03',
    ]);
    expect(utcDays('2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.001Z')).toEqual(['2026-03-02']);
    // A local day west of UTC spans two UTC days.
    expect(utcDays('2026-03-02T05:00:00.000Z', '2026-03-03T05:00:00.000Z')).toEqual([
      '2026-03-02',
      '2026-03-03',
    ]);
    // Past the most runs merged, none.
    expect(utcDays('2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z')).toHaveLength(MAX_DAY_RUNS);
    expect(utcDays('2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.001Z')).toBeNull();
    expect(utcDays('2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z')).toBeNull();
  });
});
