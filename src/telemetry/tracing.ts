import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtelCore from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

// Loaded when tracing starts, as CommonJS like the SDK's own imports of the API (one API instance).
const load = createRequire(__filename);

/**
 * OpenTelemetry tracing, loaded only when it is configured (OTEL_EXPORTER_OTLP_ENDPOINT): until
 * `startTracing` runs nothing of OpenTelemetry is loaded, and every place that would make a span
 * asks `activeTracing()`, one comparison with null, and does nothing more.
 */
export interface ActiveTracing {
  readonly api: typeof OtelApi;
  readonly tracer: OtelApi.Tracer;
  /** Sends what is finished now (tests and shutdown). */
  flush(): Promise<void>;
  /** Flushes, then unloads: later requests make no spans. */
  stop(): Promise<void>;
}

/** Where spans go: OTLP over HTTP (production), or an exporter of the caller's (tests). */
export interface TracingOptions {
  serviceName: string;
  /** The OTLP/HTTP traces URL (`.../v1/traces`); ignored with `exporter`. */
  tracesEndpoint?: string;
  /** Headers sent with each export (OTEL_EXPORTER_OTLP_HEADERS). */
  headers?: Record<string, string>;
  /** An exporter to use instead of OTLP, each span handed over as it ends (tests). */
  exporter?: SpanExporter;
}

let active: ActiveTracing | null = null;

/** The tracing in force, or null: the one check every instrumented path makes first. */
export function activeTracing(): ActiveTracing | null {
  return active;
}

/** Loads the SDK and registers it: W3C trace context in and out, context kept across awaits. */
export function startTracing(options: TracingOptions): ActiveTracing {
  if (active) throw new Error('tracing is already started');
  const api = load('@opentelemetry/api') as typeof OtelApi;
  const { TracerProvider, BatchSpanProcessor, SimpleSpanProcessor } = load(
    '@opentelemetry/sdk-trace',
  ) as typeof SdkTrace;
  const { AsyncLocalStorageContextManager } = load(
    '@opentelemetry/context-async-hooks',
  ) as typeof ContextAsyncHooks;
  const { W3CTraceContextPropagator } = load('@opentelemetry/core') as typeof OtelCore;
  const { resourceFromAttributes } = load('@opentelemetry/resources') as typeof Resources;
  let processor: SpanProcessor;
  if (options.exporter) {
    processor = new SimpleSpanProcessor({ exporter: options.exporter });
  } else {
    const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
    const exporter = new OTLPTraceExporter({ url: options.tracesEndpoint, headers: options.headers });
    processor = new BatchSpanProcessor({ exporter });
  }
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  const tracing: ActiveTracing = {
    api,
    tracer: provider.getTracer('facility-ops'),
    flush: () => provider.forceFlush(),
    stop: async () => {
      if (active === tracing) active = null;
      await provider.shutdown();
      api.trace.disable();
      api.propagation.disable();
      api.context.disable();
    },
  };
  active = tracing;
  return tracing;
}

/** Attribute values a span takes. */
export type SpanAttributes = Record<string, string | number | boolean>;

/**
 * Runs `work` in a child span of the current one (none when there is no current span: work outside
 * a request or a delivery is not traced). The span records a thrown error and ends with the work.
 */
export async function inSpan<T>(
  tracing: ActiveTracing,
  name: string,
  attributes: SpanAttributes,
  work: (span: OtelApi.Span) => Promise<T>,
  kind: 'internal' | 'client' = 'internal',
): Promise<T> {
  const { api, tracer } = tracing;
  const parent = api.context.active();
  if (api.trace.getSpan(parent) === undefined)
    return work(api.trace.wrapSpanContext(api.INVALID_SPAN_CONTEXT));
  const spanKind = kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL;
  return tracer.startActiveSpan(name, { attributes, kind: spanKind }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A root span of its own (an outbox delivery), the current one while `work` runs. */
export async function inRootSpan<T>(
  tracing: ActiveTracing,
  name: string,
  attributes: SpanAttributes,
  work: (span: OtelApi.Span) => Promise<T>,
): Promise<T> {
  const { api, tracer } = tracing;
  return tracer.startActiveSpan(name, { attributes, root: true }, api.ROOT_CONTEXT, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A finished SQL statement as a child span of the current one, timed by its reported duration:
 * the text as prepared (placeholders, never the values). Nothing outside a span.
 */
export function recordStatement(
  tracing: ActiveTracing,
  system: 'sqlite' | 'postgresql',
  text: string,
  durationMs: number,
  failed: boolean,
): void {
  const { api, tracer } = tracing;
  const parent = api.context.active();
  if (api.trace.getSpan(parent) === undefined) return;
  const end = Date.now();
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  const span = tracer.startSpan(
    `${operation} ${system}`,
    {
      kind: api.SpanKind.CLIENT,
      startTime: end - durationMs,
      attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': text },
    },
    parent,
  );
  if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
  span.end(end);
}

/** Adds the current trace's `traceparent` (W3C) to outgoing headers. */
export function injectTraceContext(tracing: ActiveTracing, headers: Record<string, string>): void {
  tracing.api.propagation.inject(tracing.api.context.active(), headers);
}
