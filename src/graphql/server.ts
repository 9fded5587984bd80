import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { GraphQLError, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { Config } from '../config';
import { DomainError } from '../kernel/errors';
import { toErrorBody } from '../rest/errors';
import type { AuthenticationHook } from '../rest/authentication';
import { keepJsonText, readBody, streamOf } from '../rest/json-text';
import { readBodyOf, type KeptLane } from '../rest/kept-lane';
import { requestIdFrom } from '../edge/request-id';
import { answerOf, INTERNAL_ERROR_MESSAGE } from '../edge/error-table';
import type { CacheMemory } from '../caching/cache-memory';
import type { RevisionTokens } from '../kernel/revisions';
import type { ResourceWatch } from '../live/live.ports';
import type { TrustedDocumentsRepository } from '../auth/trusted-documents.ports';
import {
  createContext,
  gatewayReads,
  type CacheResult,
  type ContextServices,
  type GraphqlContext,
} from './context';
import {
  domainErrorExtensions,
  domainErrorMessage,
  exposedCode,
  formatGraphqlError,
  transportErrorBody,
} from './errors';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule, type QueryLimits } from './limits';
import { jitGateway } from './jit-executor';
import { GraphqlResponseCache, type KeptAnswer } from './response-cache';
import { servedSchema } from './schema';
import { federatedSchema, type EntityReferences } from './federation';
import type { ResolverClassOf } from './resolver-instances';
import { noNulInStrings, redactSensitiveValues } from './input-safety';
import type { KnownRoutes } from '../edge/known-routes';
import { TrustedDocumentGate, type Admission } from './trusted-documents';
import { demandControl } from './demand-control';
import { ExecutionGuard, executionLimits, guardExecution } from './execution-guard';
import { inRequestContext, nameGraphqlSpan } from '../telemetry/request-spans';
import { activeTracing, type ActiveTracing } from '../telemetry/tracing';
import { registerExplorer } from './explorer/explorer.routes';
import { KeptBodies, keyFor, mayAnswerFromText } from './kept-bodies';

export const GRAPHQL_PATH = '/graphql';

/** Tokens one document may hold; the Sandbox's introspection query has about 250. */
export const MAX_TOKENS = 5_000;

/** Room for automatic persisted queries, in characters of query text (least recently used go first). */
export const APQ_CACHE_SIZE = 4 * 1024 * 1024;

/**
 * What GraphQL is served from: the services its resolvers and each request's loaders call, the
 * kept responses' revisions and memory, the trusted documents, and gateway mode's upstream.
 */
export interface GraphqlServices extends ContextServices {
  readonly revisions: RevisionTokens;
  readonly cacheMemory: CacheMemory;
  readonly trustedDocuments: TrustedDocumentsRepository;
  /** Gateway mode: the upstream's resources subscriptions watch; null otherwise. */
  readonly upstreamPollers: ResourceWatch | null;
}

export interface GraphqlOptions<S> {
  limits?: QueryLimits;
  /** The largest estimated cost answered; GRAPHQL_MAX_COST by default. */
  maxCost?: number;
  /** Counts each operation answered (Prometheus): its name or `other`, and the kept-response cache's result. */
  countOperation?: (operation: string, cache: CacheResult) => void;
  /** The schema's resolver classes, each made once with the services it names (src/modules.ts lists them). */
  resolvers: readonly ResolverClassOf<S>[];
  /** The Federation entities, by type name: served with GRAPHQL_FEDERATION=on (docs/graphql.md#federation). */
  entities?: EntityReferences;
  /**
   * Gateway mode's schema: the part of the service's the contract feeds, read from the upstream,
   * its subscription watching the upstream's resources through `pollers` (src/modules.ts makes it).
   */
  gatewaySchema: (pollers: ResourceWatch) => GraphQLSchema;
  /** Where GraphQL's path declares how its wrong methods are answered. */
  routes?: KnownRoutes;
  /** The authentication of POST's callers (src/rest/authentication.ts): the explorer's GET needs none. */
  authenticate: AuthenticationHook;
  /**
   * Subscriptions' transports over the schema served (src/live): graphql-ws is mounted by it, and
   * the handler it answers takes the POSTs that accept `text/event-stream` (GraphQL over SSE).
   */
  live?: (schema: GraphQLSchema, trusted: TrustedDocumentGate) => EventStreamHandler;
  /**
   * The kept lane, when it answers (src/rest/kept-lane.ts): a POST of a remembered text is then
   * answered before Fastify.
   */
  lane?: KeptLane;
}

/** A kept answer written after `headers` (the request's own): the headers Apollo sent with it, then its bytes. */
function writeKept(res: ServerResponse, headers: OutgoingHttpHeaders, kept: KeptAnswer): void {
  for (const [name, value] of kept.headers) headers[name] = value;
  headers['content-length'] = kept.body.length;
  res.writeHead(200, headers);
  res.end(kept.body);
}

/**
 * POST answers one result: a subscription sent that way is refused at validation, naming the two
 * transports that carry it (docs/subscriptions.md).
 */
export const subscriptionsNotOverPost: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== 'subscription') return;
    context.reportError(
      new GraphQLError(
        'subscriptions are served over graphql-ws (a WebSocket to /graphql) or SSE (POST /graphql with Accept: text/event-stream)',
        { nodes: [node] },
      ),
    );
  },
});

/** Answers a POST /graphql that asks for an event stream. */
export type EventStreamHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Whether the request asks for an event stream (GraphQL over SSE) rather than one JSON answer. */
export function asksForEventStream(accept: string | undefined): boolean {
  return accept !== undefined && accept.toLowerCase().includes('text/event-stream');
}

/** Tracing on: the request's span takes the operation's name (`query Navigate`). */
function operationSpans(tracing: ActiveTracing): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, operationName }) {
          if (operation) nameGraphqlSpan(tracing, operation.operation, operationName ?? null);
        },
      };
    },
  };
}

/** Logs what was masked for the client, with the request id (the request's own logger carries it). */
const logUnexpectedErrors: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue, operationName }) {
        for (const error of errors) {
          if (exposedCode(error) !== null) continue;
          contextValue.log.error(
            { err: error.originalError ?? error, path: error.path, operationName },
            'graphql operation failed',
          );
        }
      },
    };
  },
};

function apolloLogger(log: FastifyBaseLogger) {
  return {
    debug: (message: unknown) => log.debug(String(message)),
    info: (message: unknown) => log.info(String(message)),
    warn: (message: unknown) => log.warn(String(message)),
    error: (message: unknown) => log.error(String(message)),
  };
}

/** Answers failures that happen before Apollo runs (credentials, rate limit, body) in GraphQL's shape. */
function sendTransportError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.type('application/json; charset=utf-8');
  if (error instanceof DomainError) {
    if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
    return reply
      .code(answerOf(error.kind).status)
      .send(transportErrorBody(domainErrorMessage(error), domainErrorExtensions(error)));
  }
  const body = toErrorBody(error, request);
  if (body.status >= 500) {
    request.log.error({ err: error }, 'graphql request failed');
    return reply
      .code(500)
      .send(transportErrorBody(INTERNAL_ERROR_MESSAGE, { code: 'INTERNAL_SERVER_ERROR' }));
  }
  return reply.code(body.status).send(transportErrorBody(body.message, { code: 'BAD_REQUEST' }));
}

function quality(accept: string, type: string): { q: number; position: number } {
  const [major] = type.split('/');
  let best = { q: 0, position: Infinity, specificity: -1 };
  accept.split(',').forEach((entry, position) => {
    const [range, ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) return;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { q: Number.isFinite(q) ? q : 0, position, specificity };
  });
  return best;
}

/** Whether a GET asks for the landing page: Accept ranks text/html above JSON, as Apollo judges it. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = quality(accept, 'text/html');
  if (html.q <= 0) return false;
  return ['application/json', 'application/graphql-response+json'].every((type) => {
    const other = quality(accept, type);
    return html.q > other.q || (html.q === other.q && html.position < other.position);
  });
}

/**
 * Mounts Apollo at POST /graphql on the app (authenticated by the app's preValidation hook, like
 * /v1), and the explorer's page at GET /graphql as GRAPHQL_EXPLORER says.
 */
export async function registerGraphql<S extends GraphqlServices>(
  app: FastifyInstance,
  services: S,
  config: Config,
  options: GraphqlOptions<S>,
): Promise<void> {
  const showSchema = config.graphqlIntrospection;
  const tracing = activeTracing();
  // Gateway mode: the part of the graph the contract feeds, read from the upstream; responses are
  // kept under the upstream's ETags and sent again while it answers 304 to each read.
  const gatewayMode = services.upstream !== null;
  const maxCost = options.maxCost ?? config.graphqlMaxCost;
  // What an operation really does is bounded too, whatever its estimate (docs/graphql.md#demand-control).
  const limits = executionLimits(maxCost);
  const guard = new ExecutionGuard(limits);
  // A subgraph too, when asked (not in gateway mode: its records are read from the upstream's
  // routes under a facility, and an entity is looked up by its id alone).
  const entities = options.entities ?? {};
  const federate =
    config.graphqlFederation === 'on'
      ? (served: GraphQLSchema) => federatedSchema(served, entities)
      : undefined;
  const schema = guardExecution(
    gatewayMode
      ? options.gatewaySchema(services.upstreamPollers!)
      : servedSchema(services, options.resolvers, federate),
    limits,
  );
  const responses = new GraphqlResponseCache(
    schema,
    services.revisions,
    services.cacheMemory,
    gatewayMode ? 'upstream' : 'revisions',
  );
  // Executes with graphql-jit (measured: bench/graphql.js); Apollo parses, validates and formats.
  // The gateway's resolvers wait on the upstream; graphql-js executes them.
  const execution = gatewayMode ? { schema } : { gateway: jitGateway(schema) };
  const apollo = new ApolloServer<GraphqlContext>({
    ...(execution as { schema: GraphQLSchema }),
    introspection: showSchema,
    hideSchemaDetailsFromClientErrors: !showSchema,
    includeStacktraceInErrorResponses: false,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    persistedQueries: { cache: new InMemoryLRUCache<string>({ maxSize: APQ_CACHE_SIZE }) },
    parseOptions: { maxTokens: MAX_TOKENS },
    maxRecursiveSelections: true,
    validationRules: [
      queryLimitsRule(options.limits ?? DEFAULT_QUERY_LIMITS),
      noNulInStrings,
      subscriptionsNotOverPost,
    ],
    formatError: formatGraphqlError,
    stopOnTerminationSignals: false,
    // Kept responses are sent as the bytes first sent; new ones are kept as written.
    stringifyResult: (result) => responses.stringify(result, (text) => guard.written(text)),
    nodeEnv: config.nodeEnv,
    logger: apolloLogger(app.log),
    plugins: [
      config.graphqlExplorer === 'sandbox'
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })
        : ApolloServerPluginLandingPageDisabled(),
      redactSensitiveValues,
      logUnexpectedErrors,
      demandControl(schema, maxCost),
      guard.plugin(),
      ...(tracing ? [operationSpans(tracing)] : []),
      responses.plugin(),
      // No HTTP caching of operations here; the default cache-control plugin would wrap every
      // field resolver to compute cache hints (measured: bench/graphql.js).
      ApolloServerPluginCacheControlDisabled(),
    ],
  });
  await apollo.start();
  app.addHook('onClose', async () => {
    await apollo.stop();
  });

  // Each request's context, for what it noted once Apollo answered (the kept-response cache's result).
  const contexts = new WeakMap<FastifyRequest, GraphqlContext>();
  const handler = fastifyApolloHandler<GraphqlContext>(apollo, {
    context: async (request) => {
      const context = createContext(request, services);
      contexts.set(request, context);
      return context;
    },
  });
  const countOperation = options.countOperation ?? (() => undefined);
  // The page a browser's GET is shown (docs/graphql.md#the-explorer): GraphiQL from this service's
  // own files, Apollo Sandbox's (its landing page plugin above), or none.
  const servesPage = config.graphqlExplorer !== 'off';
  const explorerPage = config.graphqlExplorer === 'graphiql' ? registerExplorer(app, GRAPHQL_PATH) : null;
  const allowed = servesPage ? 'GET, POST' : 'POST';
  const errorHandler = (error: unknown, request: FastifyRequest, reply: FastifyReply) =>
    sendTransportError(error, request, reply);

  // The texts of bodies answered from kept responses, for keptLane.
  const keptBodies = new KeptBodies();
  // One gate, and one memory of documents, for POST and the subscriptions' transports.
  const trusted = new TrustedDocumentGate(config.trustedDocuments, services.trustedDocuments);
  const eventStream = options.live?.(schema, trusted) ?? null;
  const runApollo = handler as unknown as (
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>;
  /**
   * Sends a kept answer: the headers Apollo sent with it, then its bytes as they were first sent,
   * written as REST writes a kept page (sendParts): past Fastify's send, whose onSend hooks (the
   * closing flag's, done here) have nothing to change; the finish and onResponse hooks stay.
   */
  function sendKept(reply: FastifyReply, operation: string, kept: KeptAnswer): FastifyReply {
    countOperation(operation, 'hit');
    if (tracing) nameGraphqlSpan(tracing, 'query', kept.operationName);
    const headers = reply.getHeaders() as OutgoingHttpHeaders;
    if (reply.server.closing) headers.connection = 'close';
    reply.hijack();
    writeKept(reply.raw, headers, kept);
    return reply;
  }

  /**
   * POST /graphql, without a promise as far as memory takes it: the trusted-documents gate's
   * decision from the documents it holds (TrustedDocumentGate.admitNow), then a kept answer whose
   * tokens can be read at once (GraphqlResponseCache.keptAnswerNow: SQLite). What must wait (a
   * document only the store holds, PostgreSQL's tokens, the upstream's ETags) or execute goes on
   * with promises, deciding the same way. The caller was authenticated and counted against the
   * rate limit before (the route's preValidation hook); a kept response is the one of its caller's
   * company, Accept header, operation name, query text and variables, and passed the document
   * limits, cost and execution bounds when it was built.
   */
  function post(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    // A document id becomes the client's document text; in `require` mode nothing else passes.
    if (!trusted.concerns(request.body)) return answer.call(this, request, reply, null);
    const admission = trusted.admitNow(request.caller!.clientId, request.body);
    if (admission === null) return admitThenAnswer.call(this, request, reply);
    return answer.call(this, request, reply, admission);
  }

  async function admitThenAnswer(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const admission = await trusted.admit(request.caller!.clientId, request.body);
    return answer.call(this, request, reply, admission);
  }

  /** After the gate: its refusal, a kept answer read at once, or `execute`. */
  function answer(
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    admission: Admission | null,
  ): Promise<unknown> | undefined {
    if (admission?.refusal) {
      const { refusal } = admission;
      reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send(transportErrorBody(refusal.message, refusal.extensions));
      return undefined;
    }
    // Named in metrics only when it runs a trusted document: other names are the caller's to choose.
    const operation = operationLabel(admission?.operationNames ?? null, request.body);
    if (eventStream !== null && asksForEventStream(request.headers.accept))
      return eventStream(request, reply);
    const key = responses.requestKey(request.caller!.companyId, request.headers, request.body);
    const kept = key === null ? null : responses.keptAnswerNow(key);
    if (kept !== null) {
      // Decided by the body's text alone, or by the text and the client's trusted document (which
      // stays the client's): kept for keptLane.
      const byText = admission === null || admission.operationNames !== null;
      if (byText && request.jsonText !== null && mayAnswerFromText(request, GRAPHQL_PATH))
        keptBodies.remember(request, request.jsonText, request.caller!, admission !== null, key!, operation);
      sendKept(reply, operation, kept);
      return undefined;
    }
    return execute.call(this, request, reply, key, operation);
  }

  /** A kept response whose tokens are read with a promise; anything else through Apollo, noting what it sent. */
  async function execute(
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    key: string | null,
    operation: string,
  ) {
    if (key !== null) {
      // Gateway mode: sent again as it is while every read it made is within its bound; else its
      // reads asked again, conditionally, and when one changed, the execution that follows uses
      // what they answered.
      const reads = services.upstream ? gatewayReads(request, services.upstream) : null;
      const kept = await responses.keptAnswer(
        key,
        reads ? async (tokens) => reads.fresh(tokens) || reads.unchanged(tokens) : undefined,
      );
      if (kept !== null) return sendKept(reply, operation, kept);
    }
    const before = new Set(Object.keys(reply.getHeaders()));
    const body = await runApollo.call(this, request, reply);
    countOperation(operation, contexts.get(request)?.cacheResult ?? 'none');
    if (key !== null && reply.statusCode === 200) {
      const sent = Object.entries(reply.getHeaders())
        .filter(([name]) => !before.has(name) && name !== 'content-length')
        .map(([name, value]) => [name, String(value)] as [string, string]);
      responses.noteHeaders(key, sent);
    }
    return body;
  }

  /**
   * POST /graphql before its body is parsed: a body whose text the whole path already answered
   * from a kept response (KeptBodies) is answered again from it when its caller is known at once
   * and its kept answer is still current; anything else is handed on to the parser, unchanged.
   * Nothing the whole path checks is skipped: the text decides its shape, JSON, trusted-document
   * and key the same as before, and the caller, its rate limit and the answer's tokens are asked
   * again. A known caller over its rate limit gets the hook's refusal from here.
   */
  function keptLane(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
    done: (error: Error | null, payload?: Readable) => void,
  ): void {
    // Read before Fastify by the kept lane (answeredFromBody), which asked what is asked here.
    const read = readBodyOf(request.raw);
    if (read !== undefined) return read.error !== null ? done(read.error) : done(null, streamOf(read.body));
    if (keptBodies.size === 0 || !mayAnswerFromText(request, GRAPHQL_PATH)) return done(null, payload);
    readBody(payload, (error, body) => {
      if (error !== null) return done(error);
      const known = keptBodies.find(request, body);
      const caller = known === undefined ? false : options.authenticate.atOnce(request);
      if (caller instanceof Error) {
        reply.send(caller);
        return;
      }
      const key = caller ? keyFor(known!, request.caller!) : undefined;
      const kept = key === undefined ? null : responses.keptAnswerNow(key);
      if (kept === null) return done(null, streamOf(body));
      inRequestContext(tracing, request, () => sendKept(reply, known!.operation, kept));
    });
  }

  /**
   * keptLane before Fastify (the kept lane's body lane, KeptLane): a remembered text whose caller
   * is known at once and whose kept answer is current is answered with the bytes and headers
   * sendKept sends, counted as it counts (the operation, the request metrics, the rate limit once).
   */
  function answeredFromBody(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean {
    const known = keptBodies.find(req, body);
    if (known === undefined) return false;
    const caller = options.authenticate.callerNow(req.socket, req.headers.authorization);
    const key = caller === null ? undefined : keyFor(known, caller);
    const kept = key === undefined ? null : responses.keptAnswerNow(key);
    if (kept === null || !options.authenticate.countNow(req, caller!)) return false;
    countOperation(known.operation, 'hit');
    writeKept(res, { 'x-request-id': requestIdFrom(req.headers['x-request-id']) }, kept);
    return true;
  }
  if (options.lane && responses.answersAtOnce) {
    options.lane.startBodies({
      path: GRAPHQL_PATH,
      takes: (req) => keptBodies.size > 0 && mayAnswerFromText(req, GRAPHQL_PATH),
      answered: answeredFromBody,
    });
  }

  await app.register(async (scope) => {
    // The body's text is kept with the request, for KeptBodies.
    keepJsonText(scope);
    const route = { schema: { hide: true }, errorHandler, preValidation: options.authenticate };
    scope.post(GRAPHQL_PATH, responses.answersAtOnce ? { ...route, preParsing: keptLane } : route, post);
  });

  // Public, so a browser opens the explorer without credentials; it then sends them on each POST.
  app.get(
    GRAPHQL_PATH,
    {
      schema: { hide: true },
      errorHandler,
      preHandler: async (request, reply) => {
        if (servesPage && prefersHtml(request.headers.accept)) {
          return explorerPage === null ? undefined : explorerPage(request, reply);
        }
        const hint = servesPage ? '; GET /graphql serves only the explorer page (Accept: text/html)' : '';
        return sendMethodNotAllowed(reply, allowed, `send GraphQL operations with POST${hint}`);
      },
    },
    handler,
  );
  options.routes?.answerWrongMethodsOf(GRAPHQL_PATH, (_request, reply) =>
    sendMethodNotAllowed(reply, allowed, 'send GraphQL operations with POST'),
  );
}

/** The operation a trusted document runs, by the request's operationName or as its only one; else `other`. */
function operationLabel(trustedNames: readonly string[] | null, body: unknown): string {
  if (trustedNames === null) return 'other';
  const asked = (body as { operationName?: unknown } | null)?.operationName;
  if (typeof asked === 'string' && trustedNames.includes(asked)) return asked;
  return trustedNames.length === 1 && (asked === undefined || asked === null) ? trustedNames[0] : 'other';
}

function sendMethodNotAllowed(reply: FastifyReply, allowed: string, message: string): FastifyReply {
  return reply
    .code(405)
    .header('Allow', allowed)
    .type('application/json; charset=utf-8')
    .send(transportErrorBody(message, { code: 'BAD_REQUEST' }));
}
