import type { FastifyInstance } from 'fastify';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';

/**
 * A real upstream that is stopped, slowed and restarted: the gateway answers 502 or 504 in the
 * envelope and never hangs, stops calling a dead upstream for a while (circuit breaker), says so
 * in /readyz, and calls again once the upstream is back and the cooldown has passed.
 */
describe('gateway mode when the upstream fails', () => {
  let upstream: TestApp;
  /** The upstream's server now: the first one, then another over the same database. */
  let server: FastifyInstance;
  let gateway: Gateway;
  let port: number;
  let calls = 0;
  const logLines: string[] = [];
  /** While set, the upstream holds every request until it is resolved. */
  let hold: Promise<void> | null = null;

  const flippers = () => `/v1/${upstream.world.facility.id}/flippers`;
  const ask = () =>
    gateway.app.inject({
      method: 'GET',
      url: flippers(),
      headers: { authorization: `Bearer ${upstream.world.client.bearer_token}` },
    });

  /** Holds the upstream's requests while `hold` is set. */
  const holding = (app: FastifyInstance) =>
    app.addHook('onRequest', async () => {
      if (hold) await hold;
    });

  /** Listens, counting every request that reaches the upstream's server. */
  async function startUpstream(app: FastifyInstance, at = 0): Promise<string> {
    server = app;
    app.server.on('request', () => (calls += 1));
    const url = await listenOnLoopback(server, at);
    port = Number(new URL(url).port);
    return url;
  }

  beforeAll(async () => {
    upstream = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '0' }, prepare: holding });
    const url = await startUpstream(upstream.app);
    gateway = await startGateway(
      'sqlite',
      url,
      upstream.world,
      {
        UPSTREAM_TIMEOUT_MS: '5000',
        UPSTREAM_BREAKER_FAILURES: '3',
        UPSTREAM_BREAKER_COOLDOWN_MS: '60000',
      },
      { logLines },
    );
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    if (server !== upstream?.app) await server?.close();
    await upstream?.close();
  });

  /** Polls until the check holds; the test's own timeout bounds it. */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const sharedCalls = async () => {
    const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^upstream_calls_total\{call="shared"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };

  it('shares one upstream call among requests for the same page made while it is on its way', async () => {
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const before = { calls, shared: await sharedCalls() };
    const askAs = (id: string) =>
      gateway.app.inject({
        method: 'GET',
        url: flippers(),
        headers: { authorization: `Bearer ${upstream.world.client.bearer_token}`, 'x-request-id': id },
      });
    let first: ReturnType<typeof askAs>;
    let second: ReturnType<typeof askAs>;
    try {
      first = askAs('shared-call-1');
      await eventually(async () => calls === before.calls + 1);
      second = askAs('shared-call-2');
      await eventually(async () => (await sharedCalls()) === before.shared + 1);
    } finally {
      hold = null;
      release();
    }
    const [a, b] = await Promise.all([first, second]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(calls).toBe(before.calls + 1);
    // Each answer is the upstream's, with its own request id.
    expect(a.json().meta.request_id).toBe('shared-call-1');
    expect(b.json().meta.request_id).toBe('shared-call-2');
    expect(b.body).toBe(a.body.replace('shared-call-1', 'shared-call-2'));
  });

  // The timeout is long enough that no answer of a busy machine's upstream reaches it; the held
  // request waits for the test, not for a clock.
  it('answers 504 in the envelope when the upstream does not answer in time', async () => {
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const res = await ask();
      expect(res.statusCode).toBe(504);
      expect(res.json().meta).toMatchObject({
        status_code: 504,
        error_code: null,
        message: 'the upstream did not answer within 5000 ms',
      });
    } finally {
      hold = null;
      release();
    }
    expect((await ask()).statusCode).toBe(200); // and the next call is answered again
  });

  it('answers 502 when the upstream is down, then stops calling it until the cooldown passes', async () => {
    const url = `http://127.0.0.1:${port}`;
    await server.close();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await ask()).statusCode);
    expect(statuses).toEqual([502, 502, 502]);

    // GraphQL says so with its own code.
    const graphql = await gateway.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${upstream.world.client.bearer_token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ query: `{ facility(id: "${upstream.world.facility.id}") { flippers } }` }),
    });
    expect(graphql.json().errors[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');

    // The breaker is open: a caller is refused at once, and the operators see why.
    const refused = await ask();
    expect(refused.statusCode).toBe(502);
    expect(refused.json().meta.message).toMatch(
      /^the upstream is unavailable \(it failed repeatedly\); calls resume after /,
    );
    const ready = await gateway.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'upstream unavailable',
      upstream: { url, breaker: 'open', lastFailure: expect.stringContaining('ECONNREFUSED') },
    });

    // The upstream comes back on its address, over the same data; the open breaker still keeps
    // calls off it.
    await startUpstream(
      (await createInstance(upstream.db.store, { env: { RATE_LIMIT_PER_MINUTE: '0' } })).app,
      port,
    );
    const before = calls;
    expect((await ask()).statusCode).toBe(502);
    expect(calls).toBe(before);

    // After the cooldown one trial call goes through; its success closes the breaker.
    gateway.clock.advance(60_000);
    expect((await gateway.app.inject({ method: 'GET', url: '/readyz' })).json().upstream.breaker).toBe(
      'half-open',
    );
    const trial = await ask();
    expect(calls).toBe(before + 1);
    expect(trial.statusCode).toBe(200);
    expect(trial.json().flippers).toEqual([]);
    const readyAgain = await gateway.app.inject({ method: 'GET', url: '/readyz' });
    expect(readyAgain.statusCode).toBe(200);
    expect(readyAgain.json().upstream.breaker).toBe('closed');

    // The log says why each call failed, and holds no secret: not the upstream credentials, not
    // the caller's token, not the signature.
    const log = logLines.join('\n');
    expect(log).toContain('upstream call failed');
    expect(log).toContain('ECONNREFUSED');
    for (const secret of [
      upstream.world.client.consumer_secret,
      upstream.world.client.bearer_token!,
      'oauth_signature',
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
