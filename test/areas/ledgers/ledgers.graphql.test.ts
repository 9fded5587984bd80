import { randomUUID } from 'node:crypto';
import type {
  LedgerInsuranceServicesAndDiscountsQuery,
  LedgerInsuranceServicesAndDiscountsQueryVariables,
  LedgerRecordsQuery,
  LedgerRecordsQueryVariables,
  TenantAndUnitQuery,
  TenantAndUnitQueryVariables,
} from '../../generated/graphql';
import {
  buildDiscount,
  buildInsurance,
  buildLedger,
  buildService,
  buildTenant,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';
import { camelize } from '../../graphql/rest-compare';

const Isd = operation<
  LedgerInsuranceServicesAndDiscountsQuery,
  LedgerInsuranceServicesAndDiscountsQueryVariables
>('ledgers.graphql', 'LedgerInsuranceServicesAndDiscounts');
const Records = operation<LedgerRecordsQuery, LedgerRecordsQueryVariables>(
  'ledgers.graphql',
  'LedgerRecords',
);
const TenantAndUnit = operation<TenantAndUnitQuery, TenantAndUnitQueryVariables>(
  'ledgers.graphql',
  'TenantAndUnit',
);

describeEachDialect('GraphQL ledgers, tenants and units', (dialect) => {
  let t: TestApp;
  const tenant = buildTenant({
    facility_id: '',
    first_name: 'Grace',
    last_name: 'Hopper',
    phone: '555 0100',
  });
  const unit = buildUnit({ facility_id: '', name: 'B-7', rate: 120.25 });
  const otherUnit = buildUnit({ facility_id: '', name: 'A-2', rate: 80 });
  const ids = {
    full: '',
    bare: '',
    foreign: '',
    foreignTenant: '',
    foreignUnit: '',
    fullNote: '',
    tenantNote: '',
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    Object.assign(tenant, { facility_id: facility.id });
    Object.assign(unit, { facility_id: facility.id });
    Object.assign(otherUnit, { facility_id: facility.id });
    const full = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    const bare = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: otherUnit.id });
    const foreignTenant = buildTenant({ facility_id: otherFacility.id });
    const foreignUnit = buildUnit({ facility_id: otherFacility.id });
    const foreign = buildLedger({
      facility_id: otherFacility.id,
      tenant_id: foreignTenant.id,
      unit_id: foreignUnit.id,
    });
    Object.assign(ids, {
      full: full.id,
      bare: bare.id,
      foreign: foreign.id,
      foreignTenant: foreignTenant.id,
      foreignUnit: foreignUnit.id,
    });
    await t.load({
      tenants: [tenant, foreignTenant],
      units: [unit, otherUnit, foreignUnit],
      ledgers: [full, bare, foreign],
      ledger_insurances: [
        buildInsurance({ ledger_id: full.id, effective_date: '2020-01-01', amount: 9.99 }),
        buildInsurance({ ledger_id: full.id, effective_date: '2021-06-01', amount: 12.5 }),
        buildInsurance({ ledger_id: full.id, effective_date: '2022-01-01', cancel_date: '2022-02-01' }),
      ],
      ledger_services: [
        buildService({ ledger_id: full.id, effective_date: '2024-03-01', amount: 5 }),
        buildService({
          ledger_id: full.id,
          effective_date: '2023-03-01',
          cancel_date: '2023-09-30',
          amount: 7.25,
        }),
      ],
      ledger_discounts: [
        buildDiscount({
          ledger_id: full.id,
          start_date: '2025-01-01',
          end_date: '2025-12-31',
          min_occupancy_months: 3,
        }),
        buildDiscount({ ledger_id: full.id, start_date: '2024-01-01', name: 'Military' }),
      ],
    });
    const note = (body: Record<string, unknown>) =>
      t
        .postJson(`/v1/${facility.id}/notes`, { note: body })
        .then((res) => res.json().note_event.id as string);
    t.clock.set(new Date('2026-10-30T10:00:00Z'));
    ids.fullNote = await note({ note_text: 'Gate code changed', ledger_id: full.id });
    t.clock.set(new Date('2026-11-02T10:00:00Z'));
    ids.tenantNote = await note({ note_text: 'Prefers email', tenant_id: tenant.id, user_id: 'u-7' });
  });
  afterAll(() => t.close());

  /** REST with the bearer token: the clock stands where the notes were written, too far for OAuth. */
  const restGet = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.world.client.bearer_token}` } });

  it.each([
    ['with insurance, services and discounts', 'full'],
    ['without any', 'bare'],
  ] as const)('answers a ledger %s as REST does', async (_label, which) => {
    const ledgerId = ids[which];
    const res = await run(t, Isd, { id: t.world.facility.id, ledgerId });
    expect(res.errors).toBeUndefined();
    const rest = await restGet(
      `/v1/${t.world.facility.id}/ledgers/${ledgerId}/insurance_services_and_discounts`,
    );
    const { meta: _meta, ...restData } = rest.json();
    const { id, ...graphData } = res.data?.facility?.ledger ?? { id: null };
    expect(id).toBe(ledgerId);
    expect(graphData).toEqual(camelize(restData));
  });

  it('picks the current insurance and orders services and discounts as REST does', async () => {
    const res = await run(t, Isd, { id: t.world.facility.id, ledgerId: ids.full });
    const ledger = res.data?.facility?.ledger;
    expect(ledger?.insurance).toMatchObject({ effectiveDate: '2021-06-01', cancelDate: null, amount: 12.5 });
    expect(ledger?.insurance?.data).toMatchObject({ retainAmount: '10.0', coverageAmount: '2000.0' });
    expect(ledger?.services.map((s) => [s.effectiveDate, s.cancelDate, s.amount])).toEqual([
      ['2023-03-01', '2023-09-30', 7.25],
      ['2024-03-01', null, 5],
    ]);
    expect(ledger?.discounts.map((d) => [d.name, d.startDate, d.endDate, d.minOccupancyMonths])).toEqual([
      ['Military', '2024-01-01', null, null],
      ['First month free', '2025-01-01', '2025-12-31', 3],
    ]);
  });

  it('navigates from a ledger to its facility, tenant, unit and notes', async () => {
    const res = await run(t, Records, { id: t.world.facility.id, ledgerId: ids.full });
    expect(res.errors).toBeUndefined();
    expect(res.data?.facility?.ledger).toEqual({
      id: ids.full,
      tenantId: tenant.id,
      unitId: unit.id,
      facility: { id: t.world.facility.id },
      tenant: {
        id: tenant.id,
        firstName: 'Grace',
        lastName: 'Hopper',
        name: 'Grace Hopper',
        email: 'ada@example.com',
        phone: '555 0100',
      },
      unit: { id: unit.id, name: 'B-7', rate: 120.25 },
      notes: [{ id: ids.fullNote, notes: [{ note: 'Gate code changed' }] }],
    });
  });

  it('navigates from a tenant and a unit to their ledgers and notes', async () => {
    const res = await run(t, TenantAndUnit, {
      id: t.world.facility.id,
      tenantId: tenant.id,
      unitId: unit.id,
    });
    expect(res.errors).toBeUndefined();
    const found = res.data?.facility;
    expect(found?.tenant?.name).toBe('Grace Hopper');
    expect(found?.tenant?.facility.id).toBe(t.world.facility.id);
    expect(found?.tenant?.ledgers.map((l) => l.id)).toEqual([ids.full, ids.bare].sort());
    expect(found?.tenant?.notes).toEqual([
      {
        id: ids.fullNote,
        tenantId: tenant.id,
        unitId: unit.id,
        ledgerId: ids.full,
        userId: null,
        createdAt: '2026-10-30T06:00:00-04:00',
        createdBy: { id: t.world.client.id, name: t.world.client.name, type: 'ClientApplication' },
        notes: [
          { id: expect.any(String), note: 'Gate code changed', createdAt: '2026-10-30T06:00:00-04:00' },
        ],
        tenant: { id: tenant.id },
        unit: { id: unit.id },
        ledger: { id: ids.full },
      },
      {
        id: ids.tenantNote,
        tenantId: tenant.id,
        unitId: null,
        ledgerId: null,
        userId: 'u-7',
        // New York left daylight saving time in between.
        createdAt: '2026-11-02T05:00:00-05:00',
        createdBy: { id: t.world.client.id, name: t.world.client.name, type: 'ClientApplication' },
        notes: [{ id: expect.any(String), note: 'Prefers email', createdAt: '2026-11-02T05:00:00-05:00' }],
        tenant: { id: tenant.id },
        unit: null,
        ledger: null,
      },
    ]);
    expect(found?.unit).toEqual({
      id: unit.id,
      name: 'B-7',
      rate: 120.25,
      facility: { id: t.world.facility.id },
      ledgers: [{ id: ids.full, tenant: { name: 'Grace Hopper' } }],
      notes: [{ id: ids.fullNote, notes: [{ note: 'Gate code changed' }] }],
    });
  });

  it.each([
    ['ledger', 'unknown', () => randomUUID()],
    ['ledger', "of another company's facility", () => ids.foreign],
  ])('answers NOT_FOUND (REST 404/9) for a %s %s, as REST does', async (_what, _label, id) => {
    const ledgerId = id();
    const res = await run(t, Isd, { id: t.world.facility.id, ledgerId });
    expect(res.data).toEqual({ facility: { ledger: null } });
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: `id: no ledger ${ledgerId}`,
        path: ['facility', 'ledger'],
        extensions: {
          code: 'NOT_FOUND',
          errorCode: 9,
          parameter: 'id',
          problems: [{ parameter: 'id', message: 'no ledger with this id' }],
        },
      }),
    ]);
    const rest = await restGet(
      `/v1/${t.world.facility.id}/ledgers/${ledgerId}/insurance_services_and_discounts`,
    );
    expect(rest.statusCode).toBe(404);
  });

  it("answers NOT_FOUND for another facility's tenant or unit, naming the argument", async () => {
    const res = await run(t, TenantAndUnit, {
      id: t.world.facility.id,
      tenantId: ids.foreignTenant,
      unitId: ids.foreignUnit,
    });
    expect(res.data).toEqual({ facility: { tenant: null, unit: null } });
    // The two fields resolve concurrently: errors come in the order they happen.
    const errors = (res.errors ?? []).map((e) => [
      e.path,
      e.extensions.code,
      e.extensions.parameter,
      e.message,
    ]);
    expect(errors.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [['facility', 'tenant'], 'NOT_FOUND', 'id', `id: no tenant ${ids.foreignTenant}`],
      [['facility', 'unit'], 'NOT_FOUND', 'id', `id: no unit ${ids.foreignUnit}`],
    ]);
  });

  it('answers FORBIDDEN for a ledger under a facility of another company', async () => {
    const res = await run(t, Isd, { id: t.world.otherFacility.id, ledgerId: ids.foreign });
    expect(res.data).toEqual({ facility: null });
    expect(codesOf(res)).toEqual(['FORBIDDEN']);
  });

  it.each([
    ['not a UUID', 'not-a-uuid'],
    ['a very long string', 'a'.repeat(10_000)],
    ['an SQL fragment', "' OR 1=1 --"],
  ])('refuses %s as a ledger id variable with BAD_USER_INPUT', async (_label, ledgerId) => {
    const res = await run(t, Isd, { id: t.world.facility.id, ledgerId });
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors?.[0].message).toMatch(/^Variable "\$ledgerId" got invalid value .*; /);
    expect(res.errors?.[0].message.length).toBeLessThan(1100);
  });

  it('refuses a malformed UUID literal at validation', async () => {
    const res = await postGraphql(
      t.app,
      { query: `{ facility(id: "${t.world.facility.id}") { ledger(id: "nope") { id } } }` },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});
