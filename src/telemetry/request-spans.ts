import type { Span, Context } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActiveTracing } from './tracing';

interface RequestTrace {
  span: Span;
  context: Context;
}

const traces = new WeakMap<FastifyRequest, RequestTrace>();

/**
 * One server span per HTTP request, named by its route (`GET /v1/:facility_id/ledgers`), continuing
 * the caller's trace when its `traceparent` is valid (else a new trace begins, as W3C Trace Context
 * says). The span is the current one while the handler runs, so what the request does nests in it.
 * Registered only with tracing on: without it requests pass no hook of this module. `shownPath` is
 * the path as a span may hold it (card numbers in it masked).
 */
export function registerRequestSpans(
  app: FastifyInstance,
  tracing: ActiveTracing,
  shownPath: (path: string) => string,
): void {
  const { api, tracer } = tracing;
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers);
    const route = request.routeUrl ?? 'unknown route';
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route,
          'url.path': shownPath(request.url.split('?')[0]).slice(0, 500),
        },
      },
      parent,
    );
    const context = api.trace.setSpan(parent, span);
    traces.set(request, { span, context });
    api.context.with(context, done);
  });
  // The body was read in between, outside the request's context: the handler runs inside it again.
  app.addHook('preHandler', (request, _reply, done) => {
    const trace = traces.get(request);
    if (trace) api.context.with(trace.context, done);
    else done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const trace = traces.get(request);
    if (trace) {
      trace.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) trace.span.setStatus({ code: api.SpanStatusCode.ERROR });
      trace.span.end();
    }
    done();
  });
}

/** Names the current request's span after the GraphQL operation it runs (`POST /graphql Navigate`). */
export function nameGraphqlSpan(
  tracing: ActiveTracing,
  operationType: string,
  operationName: string | null,
): void {
  const span = tracing.api.trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${operationType} ${operationName ?? 'anonymous'}`);
  span.setAttribute('graphql.operation.type', operationType);
  if (operationName !== null) span.setAttribute('graphql.operation.name', operationName);
}

/**
 * Runs `run` as the handler runs: inside the request's trace context (the preHandler hook enters it
 * again after the body was read; an answer sent before that enters it here). Without tracing, or
 * for a request without a span, `run` is called as it is.
 */
export function inRequestContext<T>(tracing: ActiveTracing | null, request: FastifyRequest, run: () => T): T {
  const trace = tracing === null ? undefined : traces.get(request);
  return trace === undefined ? run() : tracing!.api.context.with(trace.context, run);
}
