import type {
  CompanyFacilitiesQuery,
  CompanyFacilitiesQueryVariables,
  FacilityFlippersQuery,
  FacilityFlippersQueryVariables,
  FacilityQuery,
  FacilityQueryVariables,
} from '../../generated/graphql';
import { buildFacility } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';

const Facility = operation<FacilityQuery, FacilityQueryVariables>('facility.graphql', 'Facility');
const FacilityFlippers = operation<FacilityFlippersQuery, FacilityFlippersQueryVariables>(
  'facility.graphql',
  'FacilityFlippers',
);
const CompanyFacilities = operation<CompanyFacilitiesQuery, CompanyFacilitiesQueryVariables>(
  'facility.graphql',
  'CompanyFacilities',
);

const UNKNOWN_ID = '7d1c3f7e-1111-4222-8333-944455556666';

describeEachDialect('GraphQL facility, company and flippers', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherCompany, otherFacility } = t.world;
    await t.load({
      facilities: [
        buildFacility({ company_id: company.id, name: 'harbor point', time_zone: 'America/Chicago' }),
        buildFacility({ company_id: company.id, name: 'Zebra Lane', time_zone: 'Europe/Berlin' }),
      ],
      flippers: [
        { name: 'zeta_global', enabled_globally: true },
        { name: 'alpha_company', company_ids: [company.id] },
        { name: 'beta_facility', facility_ids: [facility.id] },
        { name: 'other_company', company_ids: [otherCompany.id] },
        { name: 'other_facility', facility_ids: [otherFacility.id] },
        { name: 'disabled' },
      ],
    });
  });
  afterAll(() => t.close());

  it('answers a facility with its company', async () => {
    const res = await run(t, Facility, { id: t.world.facility.id });
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      facility: {
        id: t.world.facility.id,
        name: 'Main Street',
        timeZone: 'America/New_York',
        company: { id: t.world.company.id, name: 'Acme Storage' },
      },
    });
  });

  it('finds a facility by its id spelled in upper case', async () => {
    const res = await run(t, Facility, { id: t.world.facility.id.toUpperCase() });
    expect(res.data?.facility?.id).toBe(t.world.facility.id);
  });

  it('answers the flippers exactly as the REST paths do', async () => {
    const id = t.world.facility.id;
    for (const name of ['beta_facility', 'other_facility', 'never_heard_of_it']) {
      const res = await run(t, FacilityFlippers, { id, name });
      const list = await t.get(`/v1/${id}/flippers`);
      const one = await t.get(`/v1/${id}/flippers/${name}`);
      expect(res.errors).toBeUndefined();
      expect(res.data?.facility?.flippers).toEqual(list.json().flippers);
      expect(res.data?.facility?.flipper).toBe(one.json()[name]);
    }
    const res = await run(t, FacilityFlippers, { id, name: 'beta_facility' });
    expect(res.data?.facility).toEqual({
      id,
      flippers: ['alpha_company', 'beta_facility', 'zeta_global'],
      flipper: true,
    });
  });

  it("lists the company's facilities by name, case-insensitively", async () => {
    const res = await run(t, CompanyFacilities, { id: t.world.company.id });
    expect(res.errors).toBeUndefined();
    expect(res.data?.company?.name).toBe('Acme Storage');
    expect(res.data?.company?.facilities.map((f) => [f.name, f.timeZone])).toEqual([
      ['harbor point', 'America/Chicago'],
      ['Main Street', 'America/New_York'],
      ['Zebra Lane', 'Europe/Berlin'],
    ]);
  });

  it('accepts OAuth 1.0 signed POSTs like REST', async () => {
    const body = {
      query: Facility.document,
      operationName: 'Facility',
      variables: { id: t.world.facility.id },
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: oauthHeader(t.world.client, { method: 'POST', url: '/graphql' }),
        'content-type': 'application/json',
      },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.facility.id).toBe(t.world.facility.id);
  });

  it.each([
    ['no credentials', {}],
    ['an unknown bearer token', { authorization: 'Bearer not-a-token-anyone-was-given' }],
    ['an unsigned OAuth header', { authorization: 'OAuth oauth_consumer_key="x"' }],
  ])('answers 401 UNAUTHENTICATED with %s, in GraphQL shape', async (_label, headers) => {
    const res = await postGraphql(
      t.app,
      { query: Facility.document, variables: { id: t.world.facility.id } },
      { headers },
    );
    expect(res.status).toBe(401);
    expect(res.data).toBeUndefined();
    expect(res.errors).toEqual([
      {
        message: expect.stringMatching(/^Invalid OAuth Request: /),
        extensions: { code: 'UNAUTHENTICATED', errorCode: 2, parameter: null, problems: [] },
      },
    ]);
  });

  it('answers FORBIDDEN (REST 13) for a facility or company of another company', async () => {
    const facility = await run(t, Facility, { id: t.world.otherFacility.id });
    expect(facility.status).toBe(200);
    expect(facility.data).toEqual({ facility: null });
    expect(facility.errors).toEqual([
      {
        message: `id: facility ${t.world.otherFacility.id} is not this client's`,
        locations: [{ line: 2, column: 3 }],
        path: ['facility'],
        extensions: { code: 'FORBIDDEN', errorCode: 13, parameter: null, problems: [] },
      },
    ]);
    const company = await run(t, CompanyFacilities, { id: t.world.otherCompany.id });
    expect(company.data).toEqual({ company: null });
    expect(codesOf(company)).toEqual(['FORBIDDEN']);
  });

  it('answers NOT_FOUND (REST 9) naming the id for an unknown facility or company', async () => {
    const facility = await run(t, Facility, { id: UNKNOWN_ID });
    expect(facility.data).toEqual({ facility: null });
    expect(facility.errors?.[0]).toMatchObject({
      message: `id: no facility ${UNKNOWN_ID}`,
      path: ['facility'],
      extensions: {
        code: 'NOT_FOUND',
        errorCode: 9,
        parameter: 'id',
        problems: [{ parameter: 'id', message: 'no facility with this id' }],
      },
    });
    const company = await run(t, CompanyFacilities, { id: UNKNOWN_ID });
    expect(company.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', parameter: 'id' });
  });

  it.each([
    ['malformed', "1' OR '1'='1"],
    ['empty', ''],
    ['10,000 characters', 'x'.repeat(10_000)],
  ])('refuses a %s id variable with BAD_USER_INPUT and a short message', async (_label, id) => {
    const res = await run(t, Facility, { id });
    expect(res.status).toBe(400);
    expect(res.data).toBeUndefined();
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors?.[0].message).toMatch(/^Variable "\$id" got invalid value .*Value is not a valid UUID/);
    expect(res.errors?.[0].message.length).toBeLessThan(300);
  });

  it('refuses a malformed id literal as a validation failure naming the UUID type', async () => {
    const res = await postGraphql(
      t.app,
      { query: '{ facility(id: "not-a-uuid") { id } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(res.errors?.[0].message).toBe('Value is not a valid UUID: not-a-uuid');
  });
});
