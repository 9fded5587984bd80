import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { CacheMemory } from '../caching/cache-memory';
import type { ContractUpstream } from '../gateway/upstream.ports';
import type { DeliveryOutcome } from '../kernel/delivery';

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Requests of one method and route: answers by status, and their durations. */
interface RouteSeries {
  readonly labels: { method: string; route: string };
  readonly statuses: Map<number, number>;
  /** Answers per bucket, not yet cumulative; the last one is +Inf. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/** One metric as prom-client's registry prints it: what `getForPromString` and `get` answer. */
interface ExportedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Array<{
    labels: Record<string, string | number>;
    sharedLabels?: Record<string, string>;
    value: number;
    metricName?: string;
  }>;
}

/**
 * Request counts and durations by method, route and status, printed as prom-client prints a counter
 * and a histogram. Counted here rather than through prom-client's labelled children, which check
 * and hash their labels on every call: that was a twentieth of the work of a kept answer.
 */
class RequestMetrics {
  /** By route pattern, then method. */
  private readonly routes = new Map<string, Map<string, RouteSeries>>();
  /** In the order first seen, as prom-client prints them. */
  private readonly order: RouteSeries[] = [];
  private readonly counterOrder: Array<{ series: RouteSeries; status: number }> = [];

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.routes.get(route);
    if (byMethod === undefined) this.routes.set(route, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (series === undefined) {
      series = {
        labels: { method, route },
        statuses: new Map(),
        buckets: new Float64Array(DURATION_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      byMethod.set(method, series);
      this.order.push(series);
    }
    const answered = series.statuses.get(status);
    if (answered === undefined) this.counterOrder.push({ series, status });
    series.statuses.set(status, (answered ?? 0) + 1);
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    series.buckets[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  requests(): ExportedMetric {
    return {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      type: 'counter',
      aggregator: 'sum',
      values: this.counterOrder.map(({ series, status }) => ({
        labels: { ...series.labels, status_code: String(status) },
        value: series.statuses.get(status)!,
      })),
    };
  }

  durations(): ExportedMetric {
    const name = 'http_request_duration_seconds';
    const values: ExportedMetric['values'] = [];
    for (const series of this.order) {
      let total = 0;
      DURATION_BUCKETS.forEach((bound, index) => {
        total += series.buckets[index];
        values.push({
          labels: { le: bound },
          sharedLabels: series.labels,
          value: total,
          metricName: `${name}_bucket`,
        });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels: series.labels,
          value: series.count,
          metricName: `${name}_bucket`,
        },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${name}_count` },
      );
    }
    return {
      name,
      help: 'Time to answer HTTP requests, by method and route',
      type: 'histogram',
      aggregator: 'sum',
      values,
    };
  }
}

/** A metric the registry prints from what `read` answers when scraped. */
function exported(read: () => ExportedMetric): Metric {
  const metric = { name: read().name, get: async () => read(), getForPromString: async () => read() };
  return metric as unknown as Metric;
}

/**
 * Prometheus metrics of one app instance: request counts and durations by route and status. Answers
 * sent outside Fastify (the kept lane's) are counted by `recordRequest`.
 */
export function registerMetrics(app: FastifyInstance): {
  registry: Registry;
  recordRequest: (method: string, route: string, status: number, seconds: number) => void;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics();
  registry.registerMetric(exported(() => requests.requests()));
  registry.registerMetric(exported(() => requests.durations()));
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the concrete path, keeps the label set small.
    requests.record(
      request.method,
      request.routeUrl ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  return {
    registry,
    recordRequest: (method, route, status, seconds) => requests.record(method, route, status, seconds),
  };
}

/** One labelled series of a counter, counted in a plain number (see Tallies). */
interface Tally {
  inc(): void;
}

/**
 * Labelled series of one counter counted in plain numbers and added to it when the registry is
 * read (the counter's `collect` calls `addTo`): prom-client's own children check and hash their
 * labels on every call, about 0.2 µs of a kept GraphQL answer (docs/performance.md). A series
 * shows from the first read after its first count, as one of prom-client's children does.
 */
class Tallies<L extends string> {
  private readonly series: Array<{ labels: Record<L, string>; count: number }> = [];

  /** The series of these labels (one object a set of labels: the caller keeps it). */
  of(labels: Record<L, string>): Tally {
    const series = { labels, count: 0 };
    this.series.push(series);
    return {
      inc: () => {
        series.count += 1;
      },
    };
  }

  addTo(counter: Counter<L>): void {
    for (const series of this.series) {
      if (series.count === 0) continue;
      counter.inc(series.labels, series.count);
      series.count = 0;
    }
  }
}

/** Gateway mode: calls of the upstream, sent, shared with one on its way, or answered from a fresh kept answer. */
export function registerUpstreamMetrics(registry: Registry, upstream: ContractUpstream): void {
  const tallies = new Tallies<'call'>();
  new Counter({
    name: 'upstream_calls_total',
    help: 'Gateway mode: calls of the upstream, sent, shared with the same GET on its way, or answered by a kept answer still within its bound (kept)',
    labelNames: ['call'] as const,
    registers: [registry],
    collect() {
      tallies.addTo(this);
    },
  });
  const children = {
    sent: tallies.of({ call: 'sent' }),
    shared: tallies.of({ call: 'shared' }),
    kept: tallies.of({ call: 'kept' }),
  };
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
  const tallies = new Tallies<'cache' | 'result'>();
  new Counter({
    name: 'answer_cache_lookups_total',
    help: 'Lookups of kept answers (REST pages, GraphQL responses, upstream answers revalidated with 304): kept (hit) or built (miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      tallies.addTo(this);
    },
  });
  const results = (cache: string) => ({
    hit: tallies.of({ cache, result: 'hit' }),
    miss: tallies.of({ cache, result: 'miss' }),
  });
  const children = { rest: results('rest'), graphql: results('graphql'), upstream: results('upstream') };
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

/** Operation names a metric keeps apart at most; later ones count as `other`. */
export const MAX_OPERATION_LABELS = 200;

/**
 * GraphQL operations answered, by operation name and by what the kept-response cache did. The
 * name is a trusted document's (the transport says `other` for any other operation, whose name the
 * caller chooses), and at most MAX_OPERATION_LABELS of them are kept apart, so the label set stays
 * bounded whatever callers send.
 */
export function registerGraphqlMetrics(
  registry: Registry,
): (operation: string, cache: 'hit' | 'miss' | 'none') => void {
  const tallies = new Tallies<'operation' | 'cache'>();
  new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations answered, by operation (a trusted document\'s name, else "other") and kept-response cache result (hit, miss, none)',
    labelNames: ['operation', 'cache'] as const,
    registers: [registry],
    collect() {
      tallies.addTo(this);
    },
  });
  // Series looked up by name, then result.
  const children = new Map<string, Record<'hit' | 'miss' | 'none', Tally>>();
  return (operation, cache) => {
    let byResult = children.get(operation);
    if (byResult === undefined) {
      const name = children.size >= MAX_OPERATION_LABELS ? 'other' : operation;
      byResult = children.get(name) ?? {
        hit: tallies.of({ operation: name, cache: 'hit' }),
        miss: tallies.of({ operation: name, cache: 'miss' }),
        none: tallies.of({ operation: name, cache: 'none' }),
      };
      // A name past the limit is not kept: it finds `other` again next time.
      if (name === operation || !children.has(name)) children.set(name, byResult);
    }
    const child = byResult[cache];
    child.inc();
  };
}
