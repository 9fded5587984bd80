import Fastify, {
  type FastifyBaseLogger,
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { systemClock, type Clock } from './kernel/clock';
import { redactUrl, type Config } from './config';
import { DomainError, problem } from './kernel/errors';
import { maskUrlPath } from './kernel/sensitive';
import type { PaymentGateway } from './areas/payments/gateway';
import type { HostResolver } from './areas/webhooks/webhooks.ports';
import { transportErrorBody } from './graphql/errors';
import { GRAPHQL_PATH, registerGraphql } from './graphql/server';
import {
  CONTRACT_ROUTES,
  ENTITIES,
  gatewayGraphqlSchema,
  RESOLVERS,
  SHARED_SCHEMAS,
  V1_SCOPES,
  type ResolverClass,
} from './modules';
import { clientErrorHandler, guardServer, type EdgeContext } from './edge/client-errors';
import { KnownRoutes } from './edge/known-routes';
import { requestIdFrom } from './edge/request-id';
import { findShapeProblem, parameterName } from './edge/request-shape';
import { createLogger, lazyChildLogger, prettyLogStream } from './logger';
import {
  registerCacheMetrics,
  registerGraphqlMetrics,
  registerMetrics,
  registerUpstreamMetrics,
  registerWebhookMetrics,
} from './ops/metrics';
import { registerOpsRoutes } from './ops/ops.routes';
import {
  MemoryRateLimitStore,
  RedisRateLimitStore,
  type RateLimitStore,
  REDIS_DOWN_EFFECT,
} from './ops/rate-limit';
import type { EnvelopeState } from './rest/envelope';
import { sendError } from './rest/errors';
import { errorEnvelope, rawErrorEnvelope } from './rest/envelope';
import { formPairs, nestParams, NestedParamsError } from './rest/nested-params';
import { jsonParser } from './rest/json-text';
import { registerGatewayRoutes } from './gateway/gateway.routes';
import { registerOpenApi } from './rest/openapi-document';
import { authenticationHook } from './rest/authentication';
import { KeptLane, laneServerFactory } from './rest/kept-lane';
import { registerV1, registerV1Routes } from './rest/v1';
import { createServices, type Services } from './services';
import { registerSigningRoutes } from './areas/esign/signing/signing.routes';
import { registerLiveTransports } from './live/live-transports';
import { isReady, type Store } from './store/database';
import { registerRequestSpans } from './telemetry/request-spans';
import { activeTracing } from './telemetry/tracing';

export interface BuildAppOptions {
  config: Config;
  /** Where request counts are kept; by default Redis when REDIS_URL is set, else this process's memory. */
  rateLimitStore?: RateLimitStore;
  store: Store;
  clock?: Clock;
  /** Where log lines go (tests read them); stdout by default. */
  logStream?: DestinationStream;
  logger?: Logger;
  /** The module the signature workers run and its `workerData` (tests wrap the real one to hold it). */
  signatureWorker?: { file: string; workerData?: unknown };
  /** The module the PDF signing workers run and its `workerData` (tests wrap the real one). */
  pdfSignerWorker?: { file: string; workerData?: unknown };
  /** The payment processor adapter (tests pass their own); the built-in test gateway otherwise. */
  paymentGateway?: PaymentGateway;
  /** What webhook endpoint host names resolve to (tests pass their own); the system resolver otherwise. */
  hostResolver?: HostResolver;
  /** Other GraphQL resolver classes than the service's (tests add fields to the schema). */
  graphqlResolvers?: readonly ResolverClass[];
}

export interface App {
  app: FastifyInstance;
  services: Services;
}

const INVALID_QUERY = Symbol('invalid query');

/** Rails-style nested parameters; a malformed query string is marked, to be refused before auth. */
function parseQuery(raw: string): Record<string | symbol, unknown> {
  try {
    return nestParams(formPairs(raw));
  } catch (error) {
    return { [INVALID_QUERY]: error instanceof Error ? error.message : 'malformed query string' };
  }
}

/**
 * What is wrong with the shape of what the request sent (a malformed query string, nesting too
 * deep, a NUL anywhere), as the error to answer; null when nothing is.
 */
function shapeRefusal(request: FastifyRequest): DomainError | null {
  const query = request.query as Record<string | symbol, unknown> | undefined;
  if (query && query[INVALID_QUERY]) {
    return DomainError.invalidParameter('query', String(query[INVALID_QUERY]));
  }
  const parts = [
    ['path', request.params],
    ['query', query],
    ['body', request.body],
  ] as const;
  for (const [part, value] of parts) {
    const problem = findShapeProblem(value);
    if (problem) return DomainError.invalidParameter(parameterName(problem.path, part), problem.message);
  }
  return null;
}

/** Fastify with the service's options: our logger, request ids, parsers and error envelopes. */
function createFastify(config: Config, logger: Logger, edge: EdgeContext, lane: KeptLane): FastifyInstance {
  return Fastify({
    // Requests are offered to the kept lane before Fastify routes them (see KeptLane).
    serverFactory: laneServerFactory(lane),
    loggerInstance: logger as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    // Requests Node's parser refuses (raw bytes, unknown methods, oversized headers) get the envelope too.
    clientErrorHandler: clientErrorHandler(edge),
    routerOptions: {
      maxParamLength: 4096,
      querystringParser: parseQuery,
    },
    // Router-level failures (a malformed URL, an over-long path parameter) answer in the envelope too.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id);
      return sendError(error, request, reply);
    },
    ajv: {
      // Parameters are echoed exactly as received, so validation must not coerce or strip them.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true },
    },
  });
}

/**
 * What every request starts with: its decorations, the route read once, the not-found router's
 * query in our parser's shape, the request id header; and the closing flag shutdown sets.
 */
function registerRequestStart(app: FastifyInstance): void {
  // Answers finished while shutting down close their connection, so no idle keep-alive connection
  // holds the shutdown until its grace period ends (sendParts reads the flag too).
  app.decorate('closing', false);
  app.addHook('preClose', (done) => {
    app.closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.decorateRequest('caller', null);
  // Reference-type decorations start null and are set per request in onRequest.
  app.decorateRequest('envelope', null as unknown as EnvelopeState);
  app.decorateRequest('formPairs', null as unknown as Array<[string, string]>);
  app.decorateRequest('restNames', null);
  app.decorateRequest('routeUrl', null);
  app.decorateRequest('routeConfig', null as unknown as FastifyContextConfig);

  // Hooks that need not wait take `done`: an async hook costs every request a promise and a tick.
  app.addHook('onRequest', (request, reply, done) => {
    request.envelope = { defaults: {}, extraMeta: null };
    request.formPairs = [];
    // Read once: Fastify makes the whole routeOptions object anew on every read.
    const route = request.routeOptions;
    request.routeUrl = route.url ?? null;
    request.routeConfig = route.config ?? {};
    if (request.is404) {
      // Fastify's not-found router reads the query with its own parser and names the path `*`.
      const index = request.url.indexOf('?');
      request.query = parseQuery(index < 0 ? '' : request.url.slice(index + 1));
      request.params = {};
    }
    reply.header('X-Request-Id', request.id);
    done();
  });

  // Fastify's own, telling a body refused for a `__proto__` key apart from malformed JSON.
  const parseJson = jsonParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      try {
        const pairs = formPairs(body as string);
        request.formPairs = pairs;
        done(null, nestParams(pairs));
      } catch (error) {
        const message = error instanceof NestedParamsError ? error.message : 'malformed form body';
        done(DomainError.invalidParameter('body', message), undefined);
      }
    },
  );
}

/**
 * The check of what every request sent (its shape): a malformed query string, nesting too deep, a
 * NUL anywhere is refused before anything else reads it. A preValidation hook at the root, so it
 * runs first among them: /v1's authentication (its plugin's hook) and each route's validation
 * follow it.
 */
function registerShapeCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    let refusal: DomainError | null;
    try {
      refusal = shapeRefusal(request);
    } catch (error) {
      refusal = error as DomainError;
    }
    done(refusal ?? undefined);
  });
}

/** Errors and unknown paths answer in the envelope; a known path with another method is a 405. */
function registerFallbacks(app: FastifyInstance, edge: EdgeContext): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const known = edge.routes.lookup(path);
    if (known === null) {
      return sendError(
        new DomainError('not_found', `no route ${request.method} ${maskUrlPath(path).slice(0, 200)}`, {
          problems: [problem(['path'], 'names no route')],
        }),
        request,
        reply,
      );
    }
    const { allowed, params } = known;
    request.params = params;
    const responder = edge.routes.responderFor(path);
    if (responder) return responder(request, reply, allowed);
    return reply
      .code(405)
      .header('Allow', allowed.join(', '))
      .send(
        errorEnvelope(request, {
          status: 405,
          errorCode: null,
          message: `${request.method} is not allowed here; use ${allowed.join(' or ')}`,
          problems: [],
        }),
      );
  });
}

/** Builds the whole service, ready for `inject` or `listen`; it does not listen itself. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, store } = options;
  const clock = options.clock ?? systemClock;
  const pretty =
    config.logFormat === 'pretty' ||
    (config.logFormat === 'auto' && config.nodeEnv === 'development' && process.stdout.isTTY === true);
  const logStream = pretty ? prettyLogStream(options.logStream ?? process.stdout) : options.logStream;
  const logger = options.logger ?? createLogger(config.logLevel, logStream);
  const services = createServices(store, clock, config, {
    signatureWorker: options.signatureWorker,
    pdfSignerWorker: options.pdfSignerWorker,
    signatureLog: { warn: (details, message) => logger.warn(details, message) },
    paymentGateway: options.paymentGateway,
    hostResolver: options.hostResolver,
    upstreamLog: (details, message) => logger.warn(details, message),
    secretsLog: { error: (details, message) => logger.error(details, message) },
    liveLog: { warn: (details, message) => logger.warn(details, message) },
    revisionsLog: { warn: (details, message) => logger.warn(details, message) },
  });
  const edge: EdgeContext = {
    routes: new KnownRoutes(),
    log: logger as FastifyBaseLogger,
    graphqlPath: GRAPHQL_PATH,
    answers: {
      graphql: (message) => transportErrorBody(message, { code: 'BAD_REQUEST' }),
      rest: rawErrorEnvelope,
    },
  };

  const lane = new KeptLane();
  const app = createFastify(config, logger, edge, lane);
  edge.routes.listen(app);
  guardServer(app.server, edge);
  registerRequestStart(app);
  // Tracing (OTEL_EXPORTER_OTLP_ENDPOINT) started before the app is built; off, no hook is added.
  const tracing = activeTracing();
  if (tracing) registerRequestSpans(app, tracing, maskUrlPath);
  await registerOpenApi(app, SHARED_SCHEMAS);

  const rateLimits: RateLimitStore =
    options.rateLimitStore ??
    (config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore());
  app.addHook('onClose', () => rateLimits.close());
  app.addHook('onClose', () => services.signatureReader.close());
  app.addHook('onClose', () => services.pdfSigner.close());
  if (services.revisionNotices) {
    const notices = services.revisionNotices;
    await notices.start();
    app.addHook('onClose', () => notices.close());
  }
  if (config.redisUrl && rateLimits.check) {
    const problem = await rateLimits.check();
    if (problem !== null)
      app.log.warn(
        { setting: 'REDIS_URL', problem },
        `REDIS_URL (${redactUrl(config.redisUrl)}) does not answer: ${REDIS_DOWN_EFFECT}`,
      );
  }
  registerShapeCheck(app);
  const authenticate = authenticationHook({
    auth: services.auth,
    limit: config.rateLimitPerMinute,
    rateLimits,
    log: app.log,
  });

  const { registry, recordRequest } = registerMetrics(app);
  registerCacheMetrics(registry, services.cacheMemory);
  registerWebhookMetrics(registry, services.webhooks);
  if (services.upstream) registerUpstreamMetrics(registry, services.upstream);
  registerOpsRoutes(
    app,
    () => isReady(store),
    registry,
    services.upstream,
    () => (config.redisUrl ? (rateLimits.unavailable?.() ?? null) : null),
  );
  const upstream = services.upstream;
  if (upstream) {
    // Gateway mode: /v1 answers what the upstream answers; GraphQL reads it (see registerGraphql).
    await registerV1(app, authenticate, (v1) => registerGatewayRoutes(v1, upstream, CONTRACT_ROUTES));
    app.addHook('onClose', () => upstream.close());
  } else {
    // The kept lane answers only what Fastify's path would answer alike: not when that path also
    // logs each request (info and below) or traces it.
    if (services.pages.keeps && !logger.isLevelEnabled('info') && !tracing) {
      lane.start({
        pages: services.pages,
        auth: authenticate,
        record: recordRequest,
        closing: () => app.closing,
      });
    }
    await registerV1(app, authenticate, (v1) =>
      registerV1Routes(v1, CONTRACT_ROUTES, services, V1_SCOPES, lane.open ? lane : null),
    );
  }
  // The public signing pages of e-sign links; gateway mode keeps no links (the upstream serves its own).
  if (!upstream) registerSigningRoutes(app, services, config, rateLimits);
  await registerGraphql(app, services, config, {
    routes: edge.routes,
    authenticate,
    resolvers: options.graphqlResolvers ?? RESOLVERS,
    gatewaySchema: gatewayGraphqlSchema,
    entities: ENTITIES,
    countOperation: registerGraphqlMetrics(registry),
    live: registerLiveTransports(app, services, config),
    lane: lane.open ? lane : undefined,
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerFallbacks(app, edge);

  return { app, services };
}
