import Redis from 'ioredis';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { RedisRateLimitStore } from '../../src/ops/rate-limit';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

describeEachDialect('rate limiting', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a client passes its limit, and counts clients apart', async () => {
    const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '3' });
    const { app } = await buildApp({ config, store: t.db.store, clock: t.clock });
    try {
      const url = `/v1/${t.world.facility.id}/flippers`;
      const as = (token: string) =>
        app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      for (let i = 0; i < 3; i++) expect((await as(t.world.client.bearer_token!)).statusCode).toBe(200);
      const limited = await as(t.world.client.bearer_token!);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.json().meta).toMatchObject({
        status_code: 429,
        error_code: null,
        status_cat: 'https://http.cat/429',
      });
      // Another client of another company is not held back by the first one's usage.
      const other = await app.inject({
        method: 'GET',
        url: `/v1/${t.world.otherFacility.id}/flippers`,
        headers: { authorization: `Bearer ${t.world.otherClient.bearer_token}` },
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('shares the count across instances through Redis', async () => {
    if (!(await redisAnswers())) {
      process.stdout.write(`*** Redis rate-limit test SKIPPED: nothing answers at ${REDIS_URL} ***\n`);
      return;
    }
    const config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '2', REDIS_URL });
    // A client of its own, so runs on both dialects and reruns never share a Redis counter.
    const created = await t.services.auth.createClient(t.world.company.id, 'redis-limited');
    const first = await buildApp({
      config,
      store: t.db.store,
      clock: t.clock,
      rateLimitStore: new RedisRateLimitStore(REDIS_URL),
    });
    const second = await buildApp({
      config,
      store: t.db.store,
      clock: t.clock,
      rateLimitStore: new RedisRateLimitStore(REDIS_URL),
    });
    try {
      const url = `/v1/${t.world.facility.id}/flippers`;
      const headers = { authorization: `Bearer ${created.bearerToken}` };
      expect((await first.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
      expect((await second.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
      expect((await first.app.inject({ method: 'GET', url, headers })).statusCode).toBe(429);
      expect((await second.app.inject({ method: 'GET', url, headers })).statusCode).toBe(429);
    } finally {
      await first.app.close();
      await second.app.close();
    }
  });
});
