import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Caller } from '../kernel/caller';
import { DomainError } from '../kernel/errors';
import type { ContextServices, GraphqlContext } from '../graphql/context';
import { UpstreamReads } from '../gateway/upstream-reads';
import { exposedCode, formatGraphqlError } from '../graphql/errors';
import { noNulInStrings } from '../graphql/input-safety';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../graphql/limits';
import { estimateCost, TOO_EXPENSIVE } from '../graphql/demand-control';
import { guardStop } from '../graphql/execution-guard';
import { MAX_TOKENS } from '../graphql/server';

const RULES = [...specifiedRules, queryLimitsRule(DEFAULT_QUERY_LIMITS), noNulInStrings];

/** What a client sends to subscribe, over either transport. */
export interface OperationRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** Where a subscription's unexpected failures are told (the client sees only "Internal server error"). */
export interface LiveLog {
  error(details: object, message: string): void;
}

/** An error as the transports send it, its code from the error table; unexpected ones are logged. */
export function formattedErrors(errors: readonly GraphQLError[], log?: LiveLog): GraphQLFormattedError[] {
  return errors.map((error) => {
    // A refusal before anything ran has no path, so Apollo's unwrapping would not find its cause.
    const cause = error.originalError instanceof DomainError ? error.originalError : error;
    if (exposedCode(cause) === null) {
      log?.error({ err: error.originalError ?? error, path: error.path }, 'graphql subscription failed');
    }
    return formatGraphqlError(error.toJSON(), cause);
  });
}

/** A result with its errors formatted as POST /graphql formats them. */
export function formattedResult(
  result: { data?: unknown; errors?: readonly GraphQLError[] },
  log?: LiveLog,
): FormattedExecutionResult {
  const { errors, ...rest } = result;
  // An event the execution guard stopped is answered by its error alone, as POST answers it.
  const stopped = guardStop(errors);
  if (stopped) return { data: null, errors: formattedErrors([stopped], log) };
  return {
    ...(rest as FormattedExecutionResult),
    ...(errors && errors.length > 0 ? { errors: formattedErrors(errors, log) } : {}),
  };
}

/** A domain error as a GraphQL error, for a refusal before anything runs. */
export function refusal(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, { originalError: error });
}

/** A subscription's context: the caller's, with loaders of its own (renewed at each event). */
export function liveContext(
  services: ContextServices,
  caller: Caller,
  requestId: string,
  log: GraphqlContext['log'],
  lastEventId: string | null = null,
): GraphqlContext {
  return {
    caller,
    loaders: services.loaders(caller),
    requestId,
    log,
    trace: null,
    upstream: services.upstream ? new UpstreamReads(services.upstream, caller, requestId) : null,
    lastEventId,
    cacheResult: 'none',
  };
}

/**
 * Subscriptions' documents, parsed and validated, by their text: the subscribers of one document
 * share one tree, parsed and validated once. A bounded Map rather than an LRU: a few documents
 * (the front ends') are subscribed to over and over, and past the bound the oldest goes.
 */
export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();

  constructor(private readonly limit = 500) {}

  get(text: string): DocumentNode | undefined {
    return this.documents.get(text);
  }

  set(text: string, document: DocumentNode): void {
    if (this.documents.size >= this.limit) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(text, document);
  }
}

/**
 * Parses and validates a subscription as POST /graphql does (token limit, depth, no NUL, then its
 * estimated cost against GRAPHQL_MAX_COST),
 * into the arguments to run it with; errors (BAD_REQUEST, GRAPHQL_VALIDATION_FAILED) otherwise.
 * Queries and mutations go to POST /graphql, which caches, rate-limits and answers them.
 */
export function prepareSubscription(
  schema: GraphQLSchema,
  request: OperationRequest,
  contextValue: GraphqlContext,
  maxCost: number,
  documents?: DocumentCache,
): ExecutionArgs | GraphQLError[] {
  const bad = (message: string) => [new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } })];
  if (typeof request.query !== 'string') return bad('query: expected a GraphQL document as a string');
  const variables = request.variables ?? null;
  if (variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return bad('variables: expected an object');
  }
  const operationName = request.operationName ?? null;
  if (operationName !== null && typeof operationName !== 'string')
    return bad('operationName: expected a string');
  let document = documents?.get(request.query);
  if (!document) {
    try {
      document = parse(request.query, { maxTokens: MAX_TOKENS });
    } catch (error) {
      return [
        new GraphQLError(error instanceof Error ? error.message : 'unparsable document', {
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        }),
      ];
    }
    const errors = validate(schema, document, RULES);
    if (errors.length > 0) {
      return errors.map(
        (error) =>
          new GraphQLError(error.message, {
            nodes: error.nodes,
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          }),
      );
    }
    documents?.set(request.query, document);
  }
  const operation = getOperationAST(document, operationName);
  if (!operation) return bad('operationName: names no operation of the document');
  if (operation.operation !== 'subscription') {
    return bad(
      `send ${operation.operation === 'query' ? 'queries' : 'mutations'} with POST /graphql; this connection carries subscriptions`,
    );
  }
  // Checked here, as Apollo does for POST, so a bad variable is BAD_USER_INPUT rather than masked.
  const coerced = getVariableValues(
    schema,
    operation.variableDefinitions ?? [],
    (variables ?? {}) as Record<string, unknown>,
    {
      maxErrors: 20,
    },
  );
  if (coerced.errors) {
    return coerced.errors.map(
      (error) =>
        new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT' } }),
    );
  }
  // Demand control as POST has it: a subscription's events are each one answer of this cost.
  const estimated = estimateCost(schema, document, operation, coerced.coerced);
  if (estimated > maxCost) {
    return [
      new GraphQLError(
        `The subscription may return about ${estimated} objects per event (its estimated cost); the limit is ${maxCost}.`,
        { extensions: { code: TOO_EXPENSIVE, cost: { estimated, maximum: maxCost } } },
      ),
    ];
  }
  return {
    schema,
    document,
    operationName,
    variableValues: variables as Record<string, unknown> | null,
    contextValue,
  };
}

/**
 * What each client application holds on this instance (subscriptions, or connections), over both
 * transports; a client at its limit is refused one more (RATE_LIMITED) until one ends.
 */
export class ClientQuota {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly perClient: number,
    /** The refusal's message, naming the limit and its setting. */
    private readonly refusalMessage: (limit: number) => string,
  ) {}

  /** Takes a place for the client; a refusal when it has none left. */
  take(clientId: string): DomainError | null {
    const count = this.counts.get(clientId) ?? 0;
    if (count >= this.perClient) return new DomainError('rate_limited', this.refusalMessage(this.perClient));
    this.counts.set(clientId, count + 1);
    return null;
  }

  give(clientId: string): void {
    const count = (this.counts.get(clientId) ?? 0) - 1;
    if (count <= 0) this.counts.delete(clientId);
    else this.counts.set(clientId, count);
  }
}

/** Subscriptions per client application (LIVE_SUBSCRIPTIONS_PER_CLIENT). */
export function subscriptionQuota(perClient: number): ClientQuota {
  return new ClientQuota(
    perClient,
    (limit) =>
      `this client already holds ${limit} subscriptions on this instance (LIVE_SUBSCRIPTIONS_PER_CLIENT); end one first`,
  );
}

/** Open connections (WebSockets and SSE streams) per client application (LIVE_CONNECTIONS_PER_CLIENT). */
export function connectionQuota(perClient: number): ClientQuota {
  return new ClientQuota(
    perClient,
    (limit) =>
      `this client already holds ${limit} open connections on this instance (LIVE_CONNECTIONS_PER_CLIENT); close one first`,
  );
}
