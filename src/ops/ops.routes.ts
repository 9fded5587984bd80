import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ContractUpstream } from '../gateway/upstream.ports';
import { REDIS_DOWN_EFFECT } from './rate-limit';

/** Health, readiness and metrics: unauthenticated, outside the /v1 envelope. */
export function registerOpsRoutes(
  app: FastifyInstance,
  /** Whether the database answers (the store's `isReady`). */
  databaseReady: () => Promise<boolean>,
  registry: Registry,
  /** Gateway mode: /readyz reports the upstream too, not ready while its breaker is open. */
  upstream: ContractUpstream | null = null,
  /** Why REDIS_URL does not answer (rate limits then fail open), or null. */
  redisProblem: () => string | null = () => null,
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await databaseReady();
    // Requests are still answered while Redis is down (the limits fail open): said, not 503.
    const redis = redisProblem();
    const warnings =
      redis === null ? {} : { warnings: [`REDIS_URL does not answer (${redis}): ${REDIS_DOWN_EFFECT}`] };
    if (!upstream)
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'database unavailable', ...warnings });
    const health = upstream.health();
    const upstreamReady = health.breaker !== 'open';
    const status = !ready ? 'database unavailable' : upstreamReady ? 'ready' : 'upstream unavailable';
    return reply.code(ready && upstreamReady ? 200 : 503).send({ status, upstream: health, ...warnings });
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
