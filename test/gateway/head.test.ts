import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../support/http';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';

/**
 * HEAD is GET without a body (RFC 9110 9.3.2), on the system of record and through a gateway in
 * front of it: the same status and headers, no body. Through the gateway the upstream is asked the
 * GET, so any number of HEADs leave the circuit breaker closed for every other caller.
 */
describe('HEAD on the system of record and through the gateway', () => {
  let upstream: TestApp;
  let gateway: Gateway;
  const methods: string[] = [];

  beforeAll(async () => {
    upstream = await createTestApp('sqlite', {
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prepare: (app) =>
        app.addHook('onRequest', async (request) => {
          methods.push(request.method);
        }),
    });
    gateway = await startGateway(
      'sqlite',
      await listenOnLoopback(upstream.app),
      upstream.world,
      { UPSTREAM_BREAKER_FAILURES: '5', UPSTREAM_BREAKER_COOLDOWN_MS: '600000' },
      { everyCompany: true },
    );
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const ask = (app: FastifyInstance, method: 'GET' | 'HEAD', facilityId = upstream.world.facility.id) =>
    app.inject({
      method,
      url: `/v1/${facilityId}/flippers`,
      headers: {
        authorization: `Bearer ${(facilityId === upstream.world.facility.id ? upstream.world.client : upstream.world.otherClient).bearer_token}`,
      },
    });

  it.each([
    ['the system of record', () => upstream.app],
    ['the gateway', () => gateway.app],
  ])('%s answers HEAD as GET without a body', async (_name, app) => {
    const get = await ask(app(), 'GET');
    const head = await ask(app(), 'HEAD');
    expect(get.statusCode).toBe(200);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control'])
      expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
  });

  it('never opens the breaker for HEADs: the upstream is asked the GET, and others are served', async () => {
    methods.length = 0;
    for (let i = 0; i < 8; i++) {
      const head = await ask(gateway.app, 'HEAD');
      expect(head.statusCode).toBe(200);
    }
    expect(new Set(methods)).toEqual(new Set(['GET']));
    const ready = await gateway.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().upstream.breaker).toBe('closed');
    const other = await ask(gateway.app, 'GET', upstream.world.otherFacility.id);
    expect(other.statusCode).toBe(200);
  });
});
