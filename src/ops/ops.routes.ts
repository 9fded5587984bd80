import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ContractUpstream } from '../gateway/upstream.ports';

/** Health, readiness and metrics: unauthenticated, outside the /v1 envelope. */
export function registerOpsRoutes(
  app: FastifyInstance,
  /** Whether the database answers (the store's `isReady`). */
  databaseReady: () => Promise<boolean>,
  registry: Registry,
  /** Gateway mode: /readyz reports the upstream too, not ready while its breaker is open. */
  upstream: ContractUpstream | null = null,
): void {
  const config = { public: true };
  app.get('/healthz', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide: true } }, async (_request, reply) => {
    const ready = await databaseReady();
    if (!upstream)
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unavailable' });
    const health = upstream.health();
    const upstreamReady = health.breaker !== 'open';
    const status = !ready ? 'database unavailable' : upstreamReady ? 'ready' : 'upstream unavailable';
    return reply.code(ready && upstreamReady ? 200 : 503).send({ status, upstream: health });
  });
  app.get('/metrics', { config, schema: { hide: true } }, async (_request, reply) => {
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
