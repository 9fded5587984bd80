import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BEARER_CACHE_TTL_MS, hashToken } from '../../src/auth/auth.service';
import { FACILITY_CACHE_TTL_MS } from '../../src/areas/facilities/facilities.service';
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

  it('stops taking a bearer token removed from the database at once: the removal moves the credentials revision', async () => {
    const client = buildClient({ company_id: t.world.company.id, name: 'Short lived' });
    await t.load({ client_applications: [client] });
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(200);
    expect((await withBearer(flippers(), client.bearer_token!)).statusCode).toBe(200);

    await t.db.store.db
      .deleteFrom('bearer_tokens')
      .where('token_hash', '=', hashToken(client.bearer_token!))
      .execute();
    ahead = BEARER_CACHE_TTL_MS - 1_000;
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

  describe('over one keep-alive connection, as a client behind a proxy shares it', () => {
    let agent: Agent;
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });
    beforeEach(() => {
      agent = new Agent({ keepAlive: true, maxSockets: 1 });
    });
    afterEach(() => agent.destroy());

    const sockets = new Set<unknown>();
    const overConnection = (url: string, authorization: string) =>
      new Promise<{ status: number; body: { meta: { message?: string; error_code?: number } } }>(
        (resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, path: url, agent, headers: { authorization } },
            (res) => {
              sockets.add(res.socket);
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
            },
          );
          req.on('error', reject);
          req.end();
        },
      );

    it("answers each request as its own token's client, whichever token came before it", async () => {
      sockets.clear();
      const mine = `Bearer ${t.world.client.bearer_token!}`;
      const theirs = `Bearer ${t.world.otherClient.bearer_token!}`;
      const unknown = `Bearer ${'x'.repeat(t.world.client.bearer_token!.length)}`;
      expect((await overConnection(flippers(), mine)).status).toBe(200);
      expect((await overConnection(flippers(), mine)).status).toBe(200);
      const other = await overConnection(flippers(), theirs);
      expect([other.status, other.body.meta.error_code]).toEqual([403, 13]);
      const refused = await overConnection(flippers(), unknown);
      expect([refused.status, refused.body.meta.message]).toEqual([
        401,
        'Invalid OAuth Request: unknown bearer token',
      ]);
      expect((await overConnection(flippers(), mine)).status).toBe(200);
      // All of it on one connection, or this test would not test what it says.
      expect(sockets.size).toBe(1);
    });

    it('stops taking a removed token on the connection that used it, at once', async () => {
      sockets.clear();
      const client = buildClient({ company_id: t.world.company.id, name: 'Kept alive' });
      await t.load({ client_applications: [client] });
      const header = `Bearer ${client.bearer_token!}`;
      expect((await overConnection(flippers(), header)).status).toBe(200);
      await t.db.store.db
        .deleteFrom('bearer_tokens')
        .where('token_hash', '=', hashToken(client.bearer_token!))
        .execute();
      ahead = BEARER_CACHE_TTL_MS - 1_000;
      expect((await overConnection(flippers(), header)).status).toBe(401);
      expect(sockets.size).toBe(1);
    });
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
