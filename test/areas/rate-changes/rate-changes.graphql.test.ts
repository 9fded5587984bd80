import { randomUUID } from 'node:crypto';
import type {
  RateChangeUpdateRecordsQuery,
  RateChangeUpdateRecordsQueryVariables,
  RateChangeUpdatesQuery,
  RateChangeUpdatesQueryVariables,
} from '../../generated/graphql';
import { buildFacility, buildRateChange, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, run } from '../../graphql/graphql-client';
import { camelize, restPagination } from '../../graphql/rest-compare';

const Updates = operation<RateChangeUpdatesQuery, RateChangeUpdatesQueryVariables>(
  'rate-change-updates.graphql',
  'RateChangeUpdates',
);
const Records = operation<RateChangeUpdateRecordsQuery, RateChangeUpdateRecordsQueryVariables>(
  'rate-change-updates.graphql',
  'RateChangeUpdateRecords',
);

const WIDE = { updatedAfter: '2026-01-01T00:00:00Z', updatedBefore: '2027-01-01T00:00:00Z' };

describeEachDialect('GraphQL rate change updates', (dialect) => {
  let t: TestApp;
  const fAdam = { id: randomUUID(), name: 'adam Lockers', time_zone: 'Europe/Paris' };
  const fZed = { id: randomUUID(), name: 'Zed Storage', time_zone: 'America/New_York' };
  const fEmile = { id: randomUUID(), name: 'émile Entrepôt', time_zone: 'UTC' };
  const tenants = {
    adamLower: buildTenant({ facility_id: fAdam.id, first_name: 'adam', last_name: 'Smith' }),
    adamUpper: buildTenant({ facility_id: fAdam.id, first_name: 'Adam', last_name: 'SMITH' }),
    zoe: buildTenant({ facility_id: fAdam.id, first_name: 'Zoë', last_name: 'Quinn' }),
    bob: buildTenant({ facility_id: fZed.id, first_name: 'Bob', last_name: 'Brown' }),
    carl: buildTenant({ facility_id: fEmile.id, first_name: 'carl', last_name: 'Cole' }),
  };
  const units = {
    adam: buildUnit({ facility_id: fAdam.id, name: 'A-1' }),
    zed: buildUnit({ facility_id: fZed.id, name: 'Z-9' }),
    emile: buildUnit({ facility_id: fEmile.id, name: 'É-3' }),
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const companyId = t.world.company.id;
    const foreignTenant = buildTenant({ facility_id: t.world.otherFacility.id });
    const foreignUnit = buildUnit({ facility_id: t.world.otherFacility.id });
    const at = (
      tenant: keyof typeof tenants,
      unit: keyof typeof units,
      changed_at: string,
      created_by: number | null = null,
    ) =>
      buildRateChange({
        facility_id: tenants[tenant].facility_id,
        tenant_id: tenants[tenant].id,
        unit_id: units[unit].id,
        changed_at,
        created_by,
        old_rate: 100,
        new_rate: 110.5,
      });
    await t.load({
      facilities: [fAdam, fZed, fEmile].map((f) => buildFacility({ company_id: companyId, ...f })),
      tenants: [...Object.values(tenants), foreignTenant],
      units: [...Object.values(units), foreignUnit],
      rate_changes: [
        at('bob', 'zed', '2026-03-12T00:00:00Z', 7),
        at('adamLower', 'adam', '2026-05-01T00:00:00Z'),
        at('adamUpper', 'adam', '2026-02-01T00:00:00Z', 7),
        at('adamUpper', 'adam', '2026-02-01T00:00:00Z'),
        at('zoe', 'adam', '2026-03-01T08:30:00Z', 9),
        at('carl', 'emile', '2026-06-30T23:59:59.999Z'),
        at('carl', 'emile', '2026-07-01T00:00:00Z'),
        buildRateChange({
          facility_id: t.world.otherFacility.id,
          tenant_id: foreignTenant.id,
          unit_id: foreignUnit.id,
        }),
      ],
    });
  });
  afterAll(() => t.close());

  const restQuery = (params: Record<string, string | number | undefined>) =>
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');

  it.each([
    ['a wide window', WIDE],
    [
      'a window closed on its end',
      { updatedAfter: '2026-03-01T09:30:00+01:00', updatedBefore: '2026-07-01T00:00:00Z' },
    ],
    ['a creator filter', { ...WIDE, createdBy: 7 }],
    ['two per page', { ...WIDE, perPage: 2 }],
    ['the third page of two', { ...WIDE, perPage: 2, page: 3 }],
    ['a page past the end', { ...WIDE, page: 9 }],
    ['a per_page above 2000', { ...WIDE, perPage: 5000 }],
    ['an empty window', { updatedAfter: '2026-01-01T00:00:00Z', updatedBefore: '2026-01-01T00:00:00Z' }],
  ])(
    'answers what REST answers for %s',
    async (_label, args: Omit<RateChangeUpdatesQueryVariables, 'id'>) => {
      const res = await run(t, Updates, { id: t.world.company.id, ...args });
      expect(res.errors).toBeUndefined();
      const query = restQuery({
        updated_after: args.updatedAfter,
        updated_before: args.updatedBefore,
        created_by: args.createdBy ?? undefined,
        page: args.page ?? undefined,
        per_page: args.perPage ?? undefined,
      });
      const rest = (await t.get(`/v1/companies/${t.world.company.id}/rate_change_updates?${query}`)).json();
      expect(res.data?.company?.rateChangeUpdates).toEqual({
        entries: camelize(rest.rate_change_updates),
        pagination: restPagination(rest),
      });
    },
  );

  it('sorts by facility name, then tenant name (case-insensitively), changedAt, id; instants in each facility zone', async () => {
    const res = await run(t, Updates, { id: t.world.company.id, ...WIDE });
    const entries = res.data?.company?.rateChangeUpdates.entries ?? [];
    expect(entries.map((e) => [e.facilityName, e.tenantName, e.changedAt])).toEqual([
      // The same name but for case: then by changedAt.
      ['adam Lockers', 'Adam SMITH', '2026-02-01T01:00:00+01:00'],
      ['adam Lockers', 'Adam SMITH', '2026-02-01T01:00:00+01:00'],
      ['adam Lockers', 'adam Smith', '2026-05-01T02:00:00+02:00'],
      ['adam Lockers', 'Zoë Quinn', '2026-03-01T09:30:00+01:00'],
      ['Zed Storage', 'Bob Brown', '2026-03-11T20:00:00-04:00'],
      ['émile Entrepôt', 'carl Cole', '2026-06-30T23:59:59.999+00:00'],
      ['émile Entrepôt', 'carl Cole', '2026-07-01T00:00:00+00:00'],
    ]);
    expect(res.data?.company?.rateChangeUpdates.pagination).toMatchObject({ perPage: 500, totalEntries: 7 });
  });

  it('navigates to the facility, tenant and unit of each change', async () => {
    const res = await run(t, Records, { id: t.world.company.id, ...WIDE });
    expect(res.errors).toBeUndefined();
    const first = res.data?.company?.rateChangeUpdates.entries[4];
    expect(first).toEqual({
      id: expect.any(String),
      createdBy: 7,
      facility: { id: fZed.id, name: 'Zed Storage' },
      tenant: { id: tenants.bob.id, name: 'Bob Brown' },
      unit: { id: units.zed.id, name: 'Z-9' },
    });
  });

  it.each([
    [
      'updatedAfter',
      { updatedAfter: '2026-06-01T00:00:00Z', updatedBefore: '2026-01-01T00:00:00Z' },
      'updatedAfter must not be later than updatedBefore',
    ],
    ['page', { ...WIDE, page: 0 }, 'page must be a whole number >= 1'],
    ['perPage', { ...WIDE, perPage: 0 }, 'perPage must be a whole number >= 1'],
  ])('answers BAD_USER_INPUT naming %s, as REST answers 400/4', async (parameter, args, message) => {
    const res = await run(t, Updates, { id: t.world.company.id, ...args });
    expect(res.data).toEqual({ company: null });
    expect(res.errors?.[0]).toMatchObject({
      message,
      path: ['company', 'rateChangeUpdates'],
      extensions: { code: 'BAD_USER_INPUT', errorCode: 4, parameter },
    });
  });

  it.each([
    ['without an offset', { ...WIDE, updatedAfter: '2026-01-01T00:00:00' }],
    ['a date only', { ...WIDE, updatedBefore: '2027-01-01' }],
    ['a very long string', { ...WIDE, updatedAfter: '2'.repeat(10_000) }],
    ['a created_by beyond 32 bits', { ...WIDE, createdBy: 2 ** 31 }],
  ])('refuses a variable %s with BAD_USER_INPUT', async (_label, args) => {
    const res = await run(t, Updates, { id: t.world.company.id, ...args });
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
  });

  it("answers FORBIDDEN for another company's id, NOT_FOUND for an unknown one", async () => {
    const forbidden = await run(t, Updates, { id: t.world.otherCompany.id, ...WIDE });
    expect(forbidden.data).toEqual({ company: null });
    expect(codesOf(forbidden)).toEqual(['FORBIDDEN']);
    const unknown = await run(t, Updates, { id: randomUUID(), ...WIDE });
    expect(codesOf(unknown)).toEqual(['NOT_FOUND']);
  });
});
