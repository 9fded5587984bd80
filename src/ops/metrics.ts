import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheMemory } from '../caching/cache-memory';
import type { ContractUpstream } from '../domain/gateway/upstream.ports';
import type { DeliveryOutcome } from '../domain/outbox/outbox.worker';

/** Prometheus metrics of one app instance: request counts and durations by route and status. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // One labelled child per method, route and status, found by a string key: resolving the label
  // object on every request cost more than counting.
  const children = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the concrete path, keeps the label set small.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (child === undefined) {
      const counter = requests.labels(request.method, route, String(reply.statusCode));
      const histogram = duration.labels(request.method, route);
      child = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      children.set(key, child);
    }
    child.count();
    child.time(reply.elapsedTime / 1000);
    done();
  });
  return registry;
}

/** Gateway mode: calls of the upstream, sent or shared with one on its way. */
export function registerUpstreamMetrics(registry: Registry, upstream: ContractUpstream): void {
  const calls = new Counter({
    name: 'upstream_calls_total',
    help: 'Gateway mode: calls of the upstream, sent, or shared with the same GET on its way',
    labelNames: ['call'] as const,
    registers: [registry],
  });
  const children = { sent: calls.labels('sent'), shared: calls.labels('shared') };
  upstream.onCall = (call) => children[call].inc();
}

/** Webhook delivery attempts by outcome, as the outbox worker of this process ends them. */
export function registerWebhookMetrics(
  registry: Registry,
  webhooks: { onDelivery: ((outcome: DeliveryOutcome) => void) | null },
): void {
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: sent (2xx answer), retrying (failed, tried again later), failed (given up), unrecorded (sent, outcome not written)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const children: Record<DeliveryOutcome, { inc(value?: number): void }> = {
    sent: deliveries.labels('sent'),
    retrying: deliveries.labels('retrying'),
    failed: deliveries.labels('failed'),
    unrecorded: deliveries.labels('unrecorded'),
  };
  // Every outcome is listed from the start, at zero.
  for (const child of Object.values(children)) child.inc(0);
  webhooks.onDelivery = (outcome) => children[outcome].inc();
}

/** Lookups of kept answers, by cache and result, and the bytes they hold. */
export function registerCacheMetrics(registry: Registry, memory: CacheMemory): void {
  const lookups = new Counter({
    name: 'answer_cache_lookups_total',
    help: 'Lookups of kept answers (REST pages, GraphQL responses, upstream answers revalidated with 304): kept (hit) or built (miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });
  const children = {
    rest: { hit: lookups.labels('rest', 'hit'), miss: lookups.labels('rest', 'miss') },
    graphql: { hit: lookups.labels('graphql', 'hit'), miss: lookups.labels('graphql', 'miss') },
    upstream: { hit: lookups.labels('upstream', 'hit'), miss: lookups.labels('upstream', 'miss') },
  };
  memory.onLookup = (cache, kept) => children[cache][kept ? 'hit' : 'miss'].inc();
  new Gauge({
    name: 'answer_cache_bytes',
    help: 'Bytes held by kept answers (at most PAGE_CACHE_MB)',
    registers: [registry],
    collect() {
      this.set(memory.size);
    },
  });
}
