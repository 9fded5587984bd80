import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';

/**
 * The /v1 routes under /:facility_id read their facility once, in the facility's scope (a
 * preHandler of their plugin), and under /companies/:company_id their company: another company's
 * is refused 403/13 and an unknown one 404/9, with the same text through every route, and after
 * the route's own validation but before anything the route reads of its parameters.
 */
describeEachDialect('the facility and company scopes of /v1', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const getPaths = (facilityId: string) => [
    `/v1/${facilityId}/flippers`,
    `/v1/${facilityId}/flippers/some_flag`,
    `/v1/${facilityId}/invoiceable_items`,
    `/v1/${facilityId}/invoiceable_items/retail?page=2&per_page=5`,
    `/v1/${facilityId}/invoiceable_items/fees`,
    `/v1/${facilityId}/ledgers/${randomUUID()}/insurance_services_and_discounts`,
    `/v1/${facilityId}/rate_applied_actions`,
    `/v1/${facilityId}/events/${randomUUID()}/documents`,
    `/v1/${facilityId}/documents/${randomUUID()}`,
  ];

  const answers = async (facilityId: string): Promise<LightMyRequestResponse[]> => [
    ...(await Promise.all(getPaths(facilityId).map((path) => t.get(path)))),
    await t.postJson(`/v1/${facilityId}/invoiceable_items/retail_payment`, {}),
  ];

  const refusalOf = (res: LightMyRequestResponse) => {
    const { meta } = res.json();
    return { status: res.statusCode, error_code: meta.error_code, message: meta.message };
  };

  it("refuses another company's facility 403/13 with the same text through every route", async () => {
    const id = t.world.otherFacility.id;
    for (const res of await answers(id)) {
      expect(refusalOf(res)).toEqual({
        status: 403,
        error_code: 13,
        message: expect.stringContaining(`facility ${id} is not this client's`),
      });
      expect(res.json().meta.message).toBe((await t.get(`/v1/${id}/flippers`)).json().meta.message);
    }
  });

  it('refuses an unknown facility 404/9 with the same text through every route', async () => {
    const id = randomUUID();
    const expected = refusalOf(await t.get(`/v1/${id}/flippers`));
    expect(expected).toMatchObject({ status: 404, error_code: 9 });
    for (const res of await answers(id)) expect(refusalOf(res)).toEqual(expected);
  });

  it("checks the facility before the route reads its parameters, after the route's validation", async () => {
    const other = t.world.otherFacility.id;
    // page=0 is the route's to refuse (400/4), but only for a facility of the caller's.
    const own = await t.get(`/v1/${t.world.facility.id}/invoiceable_items?page=0`);
    expect(own.statusCode).toBe(400);
    expect((await t.get(`/v1/${other}/invoiceable_items?page=0`)).statusCode).toBe(403);
    // A parameter over its schema's length is refused by validation, before the facility is read.
    const long = await t.get(`/v1/${other}/flippers/${'x'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
  });

  it("answers the caller's own facility through the same routes", async () => {
    const flippers = await t.get(`/v1/${t.world.facility.id}/flippers`);
    expect(flippers.statusCode).toBe(200);
    expect(flippers.json().flippers).toEqual(expect.any(Array));
  });

  it("refuses another company's company 403/13 and an unknown one 404/9, before reading the window", async () => {
    const path = (id: string) => `/v1/companies/${id}/rate_change_updates?updated_after=nonsense`;
    const foreign = refusalOf(await t.get(path(t.world.otherCompany.id)));
    expect(foreign).toEqual({
      status: 403,
      error_code: 13,
      message: expect.stringContaining(`company ${t.world.otherCompany.id} is not this client's`),
    });
    expect(refusalOf(await t.get(path(randomUUID())))).toMatchObject({ status: 404, error_code: 9 });
    expect((await t.get(path(t.world.company.id))).statusCode).toBe(400);
  });
});
