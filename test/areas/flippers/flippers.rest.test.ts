import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';

describeEachDialect('GET /v1/:facility_id/flippers', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherCompany, otherFacility } = t.world;
    await t.load({
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

  it('lists flags enabled globally, for the company and for the facility, sorted by name', async () => {
    const url = `/v1/${t.world.facility.id}/flippers`;
    const res = await t.get(url, { 'x-request-id': 'req-123' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('req-123');
    const body = res.json();
    expect(Object.keys(body)).toEqual(['flippers', 'meta']);
    expect(body.flippers).toEqual(['alpha_company', 'beta_facility', 'zeta_global']);
    expect(body.meta).toEqual({
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'GET',
      request_id: 'req-123',
      parameters: { facility_id: t.world.facility.id },
    });
    expect(Object.keys(body.meta)).toEqual([
      'status_code',
      'status_message',
      'status_cat',
      'request_method',
      'request_id',
      'parameters',
    ]);
  });

  it('answers one flag by name, false for an unknown name', async () => {
    const on = await t.get(`/v1/${t.world.facility.id}/flippers/beta_facility`);
    expect(on.json()).toMatchObject({
      beta_facility: true,
      meta: { parameters: { flipper_name: 'beta_facility' } },
    });
    const off = await t.get(`/v1/${t.world.facility.id}/flippers/other_facility`);
    expect(off.json().other_facility).toBe(false);
    const unknown = await t.get(`/v1/${t.world.facility.id}/flippers/never_heard_of_it`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().never_heard_of_it).toBe(false);
  });

  it('answers 400/4 naming flipper_name for an empty name (a trailing slash)', async () => {
    const res = await t.get(`/v1/${t.world.facility.id}/flippers/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).not.toHaveProperty('');
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'flipper_name' }] });
  });

  it('answers 401/2 without credentials, in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/${t.world.facility.id}/flippers` });
    expect(res.statusCode).toBe(401);
    expect(res.json().meta).toMatchObject({ status_code: 401, error_code: 2, errors: [] });
    expect(res.json().meta.message).toMatch(/^Invalid OAuth Request/);
  });

  it('answers 403/13 for a facility of another company', async () => {
    const res = await t.get(`/v1/${t.world.otherFacility.id}/flippers`);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta.error_code).toBe(13);
  });

  it.each([
    ['an unknown id', '7d1c3f7e-1111-4222-8333-944455556666'],
    ['a malformed id', "1'%20OR%20'1'='1"],
    ['a very long id', 'x'.repeat(3000)],
  ])('answers 404/9 naming facility_id for %s', async (_label, id) => {
    const res = await t.get(`/v1/${id}/flippers`);
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
  });

  it('answers 405 in the envelope for a wrong method', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/${t.world.facility.id}/flippers` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().meta).toMatchObject({ status_code: 405, error_code: null });
  });

  it('answers 404/9 in the envelope for an unknown route', async () => {
    const res = await t.get('/v1/nothing/here/at/all');
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({
      status_code: 404,
      error_code: 9,
      status_cat: 'https://http.cat/404',
    });
  });
});
