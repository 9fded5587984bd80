import { BEARER_CACHE_TTL_MS, hashToken } from '../../src/auth/auth.service';
import { FACILITY_CACHE_TTL_MS } from '../../src/domain/facilities/facilities.service';
import { buildClient, buildFacility } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';

describeEachDialect('credentials and facilities kept a few seconds per process', (dialect) => {
  let t: TestApp;
  // The caches read the monotonic clock; tests move it forward instead of waiting.
  let ahead = 0;
  const realNow = performance.now.bind(performance);
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  beforeEach(() => {
    ahead = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => realNow() + ahead);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t.close());

  const withBearer = (url: string, token: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const flippers = () => `/v1/${t.world.facility.id}/flippers`;

  it('stops taking a bearer token removed from the database once the cache time has passed', async () => {
    const client = buildClient({ company_id: t.world.company.id, name: 'Short lived' });
    await t.load({ client_applications: [client] });
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(200);

    await t.db.store.db
      .deleteFrom('bearer_tokens')
      .where('token_hash', '=', hashToken(client.bearer_token!))
      .execute();
    ahead = BEARER_CACHE_TTL_MS - 1_000;
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(200);
    ahead = BEARER_CACHE_TTL_MS + 1;
    const res = await withBearer(flippers(), client.bearer_token!);
    expect(res.statusCode).toBe(401);
    expect(res.json().meta.message).toBe('Invalid OAuth Request: unknown bearer token');
  });

  it('never remembers an unknown token: one created after a refusal works at once', async () => {
    const client = buildClient({ company_id: t.world.company.id, name: 'Latecomer' });
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(401);
    await t.load({ client_applications: [client] });
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(200);
  });

  it("still refuses another company's client a facility its owner's request put in the cache", async () => {
    expect((await t.get(flippers())).statusCode).toBe(200);
    const res = await withBearer(flippers(), t.world.otherClient.bearer_token!);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta.error_code).toBe(13);
  });

  it("shows a facility's imported change once the cache time has passed", async () => {
    const facility = buildFacility({ company_id: t.world.company.id, time_zone: 'America/Chicago' });
    await t.load({ facilities: [facility] });
    const caller = { clientId: t.world.client.id, companyId: t.world.company.id, name: 'Front Desk' };
    const before = await t.services.facilities.facilityFor(caller, facility.id);
    expect(before.timeZone).toBe('America/Chicago');

    await t.load({ facilities: [{ ...facility, time_zone: 'Europe/Dublin' }] });
    ahead = FACILITY_CACHE_TTL_MS - 1_000;
    expect((await t.services.facilities.facilityFor(caller, facility.id)).timeZone).toBe('America/Chicago');
    ahead = FACILITY_CACHE_TTL_MS + 1;
    expect((await t.services.facilities.facilityFor(caller, facility.id)).timeZone).toBe('Europe/Dublin');
  });
});
