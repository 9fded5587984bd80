import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { isReady, type Store } from '../store/database';

/** Health, readiness and metrics: unauthenticated, outside the /v1 envelope. */
export function registerOpsRoutes(app: FastifyInstance, store: Store, registry: Registry): void {
  const config = { public: true };
  app.get('/healthz', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide: true } }, async (_request, reply) => {
    const ready = await isReady(store.db);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unavailable' });
  });
  app.get('/metrics', { config, schema: { hide: true } }, async (_request, reply) => {
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
