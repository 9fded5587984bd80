import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestContext } from '@apollo/server';
import {
  BREAK,
  getNamedType,
  isAbstractType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FormattedExecutionResult,
  type GraphQLCompositeType,
  type GraphQLSchema,
} from 'graphql';
import type { CacheMemory } from '../caching/cache-memory';
import type { RevisionScope, RevisionTokens } from '../kernel/revisions';
import type { GraphqlContext } from './context';
import { KEPT_EXTENSION } from './kept';
import { COST_EXTENSION } from './demand-control';
import { ownResolver } from './execution-guard';
import { ResponseTrace, type Keeping, type Tokens } from './response-trace';

export type { Tokens };

/** Tells whether a kept response's tokens still hold. */
export type TokenCheck = (tokens: Tokens) => Promise<boolean>;

/** How kept responses are checked: by revision counters, or by the upstream's ETags (gateway mode). */
export type KeepingMode = 'revisions' | 'upstream';

interface StoredResponse {
  tokens: Tokens;
  /** The response's bytes, exactly as they were sent (bytes: sent again without encoding). */
  body: Buffer;
  /** The headers Apollo sent with them, once its answer is complete (see `noteHeaders`). */
  headers: Array<[string, string]> | null;
  /** The name of the operation that ran (null: anonymous), for the request span of a kept answer. */
  operationName: string | null;
}

/** What a kept response is answered with before Apollo runs. */
export interface KeptAnswer {
  body: Buffer;
  headers: Array<[string, string]>;
  /** The query's operation name, as Apollo resolved it when it ran (null: anonymous). */
  operationName: string | null;
}

/** The parts of a POST body a response is kept under. */
interface OperationRequest {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/** Marks a result data object answered from memory: its stored bytes. */
const KEPT_BYTES = Symbol('kept response bytes');
/** Marks a result data object being kept: the trace of the execution that made it. */
const KEEPING = Symbol('response being kept');

type MarkedData = Record<string, unknown> & { [KEPT_BYTES]?: string; [KEEPING]?: Keeping };

/**
 * Whether a query's answer may be kept: every field it selects either declares the scope of what
 * it reads (`@Kept`), or has no resolver of its own (a property of an object a declaring field
 * read), or is `__typename`. Anything else, such as a field added later that reads data through a
 * resolver without declaring it, makes the whole response not kept: the rule fails closed.
 */
export function keepableQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
): boolean {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    operationName === null
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((d) => d.name?.value === operationName);
  if (operation === undefined || operation.operation !== 'query') return false;
  // The operation and every fragment (an unused one only makes the verdict stricter).
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  let allowed = true;
  for (const definition of [operation, ...fragments]) {
    const typeInfo = new TypeInfo(schema);
    visit(
      definition,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (node.name.value === '__typename') return undefined;
          if (!parent || !fieldReadsOnlyKept(schema, parent, node.name.value)) {
            allowed = false;
            return BREAK;
          }
          return undefined;
        },
        Directive(node) {
          if (node.name.value !== 'include' && node.name.value !== 'skip') {
            allowed = false;
            return BREAK;
          }
          return undefined;
        },
      }),
    );
    if (!allowed) return false;
  }
  return true;
}

/** On an interface, every implementation's field must qualify. */
function fieldReadsOnlyKept(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string): boolean {
  const types = isAbstractType(parent) ? schema.getPossibleTypes(parent) : [parent];
  return types.every((type) => {
    const field = 'getFields' in type ? type.getFields()[name] : undefined;
    if (!field || !getNamedType(field.type)) return false;
    // The execution guard's count of a list's entries reads nothing: a property stays one.
    return field.extensions?.[KEPT_EXTENSION] === true || ownResolver(field) === undefined;
  });
}

/**
 * Whole GraphQL responses kept between requests, as an Apollo Server plugin: a query that
 * `keepableQuery` allows is answered from memory while none of the scopes its execution read has
 * changed, under the caller's company, the Accept header, the operation name, the query text and
 * the variables. Only complete responses without errors are kept, byte for byte (through
 * `stringifyResult`, which sends kept bytes as they are and hands new ones to their trace).
 *
 * A kept response is also answered before Apollo runs (`keptAnswer`, from the POST body): Apollo's
 * request pipeline and a request context cost more than the answer itself (measured:
 * bench/graphql.js, a 168 KB rate change page at a third of the rate through the pipeline); and
 * without a promise when its tokens can be read at once (`keptAnswerNow`: SQLite). What may be
 * kept is still decided inside the pipeline, once per query text.
 */
export class GraphqlResponseCache {
  /** By the parsed document Apollo's document cache hands back for the same query text. */
  private readonly verdicts = new WeakMap<DocumentNode, Map<string, boolean>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly revisions: RevisionTokens,
    private readonly memory: CacheMemory,
    /**
     * 'upstream' in gateway mode: any query is kept (its every read is an upstream GET), under
     * the ETags of what it read, and sent again while the upstream answers each of them 304.
     */
    private readonly mode: KeepingMode = 'revisions',
  ) {}

  private get enabled(): boolean {
    return this.memory.enabled;
  }

  /** Whether `keptAnswerNow` may ever answer: responses are kept, under revision tokens. */
  get answersAtOnce(): boolean {
    return this.mode === 'revisions' && this.enabled;
  }

  plugin(): ApolloServerPlugin<GraphqlContext> {
    return {
      requestDidStart: async () => ({
        didResolveOperation: async (rc) => {
          if (!this.enabled || rc.operation?.operation !== 'query') return;
          // An answer carrying this request's cost estimate is its own.
          if (rc.request.extensions?.[COST_EXTENSION] !== undefined) return;
          if (this.mode === 'upstream') return; // kept when answered: see willSendResponse
          if (!this.keepable(rc.document, rc.operationName ?? null)) return;
          rc.contextValue.trace = new ResponseTrace(this.keyOf(rc), this.revisions, rc.operationName ?? null);
        },
        responseForOperation: async (rc) => {
          const trace = rc.contextValue.trace;
          if (!trace) return null;
          const kept = this.memory.get<StoredResponse>(trace.key);
          const current = kept !== undefined && (await this.current(kept.tokens));
          this.memory.onLookup('graphql', current);
          rc.contextValue.cacheResult = current ? 'hit' : 'miss';
          if (!current) return null;
          const data: MarkedData = { [KEPT_BYTES]: kept.body.toString('utf8') };
          return {
            http: { status: undefined, headers: new HeaderMap() },
            body: { kind: 'single', singleResult: { data } },
          };
        },
        willSendResponse: async (rc) => {
          if (rc.request.extensions?.[COST_EXTENSION] !== undefined) return;
          const trace = rc.contextValue.trace ?? this.upstreamKeeping(rc);
          const { body } = rc.response;
          if (!trace || body.kind !== 'single' || body.singleResult.errors) return;
          if (rc.contextValue.cacheResult === 'none') rc.contextValue.cacheResult = 'miss';
          const data = body.singleResult.data as MarkedData | null | undefined;
          if (data && data[KEPT_BYTES] === undefined) data[KEEPING] = trace;
        },
      }),
    };
  }

  /**
   * Apollo's `stringifyResult`: kept bytes as they are; a response being kept, kept as written.
   * `admit` may answer other text for what was written (a response too long): that is not kept.
   */
  stringify(result: FormattedExecutionResult, admit: (text: string) => string = (text) => text): string {
    const data = result.data as MarkedData | null | undefined;
    const kept = data?.[KEPT_BYTES];
    if (kept !== undefined) return kept;
    const written = `${JSON.stringify(result)}\n`;
    const text = admit(written);
    const trace = data?.[KEEPING];
    if (trace && result.errors === undefined && text === written) this.keep(trace, text);
    return text;
  }

  /**
   * The key a POST body is kept under, as the plugin computes it inside Apollo; null when nothing
   * is kept (PAGE_CACHE_MB=0), and for anything only Apollo may judge: a body that is not JSON (CSRF prevention refuses form posts), or one
   * with extensions (a persisted query must reach Apollo, which registers its text).
   */
  requestKey(
    companyId: string,
    headers: { accept?: string; 'content-type'?: string },
    body: unknown,
  ): string | null {
    if (!this.enabled) return null;
    if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '')) return null;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, operationName, variables, extensions } = body as OperationRequest;
    if (typeof query !== 'string' || extensions !== undefined) return null;
    const accept = headers.accept;
    return this.key(companyId, accept ?? '', operationName ?? null, query, variables ?? null);
  }

  /**
   * Before Apollo: the kept answer of a current response under the key, or null. `check` tells
   * whether its tokens hold (gateway mode: the request's conditional reads of the upstream).
   */
  async keptAnswer(
    key: string,
    check: TokenCheck = (tokens) => this.current(tokens),
  ): Promise<KeptAnswer | null> {
    const kept = this.memory.get<StoredResponse>(key);
    if (kept === undefined || kept.headers === null) return null;
    if (!(await check(kept.tokens))) {
      // In the system of record the plugin counts the miss, inside Apollo; the gateway's is here.
      if (this.mode === 'upstream') this.memory.onLookup('graphql', false);
      return null;
    }
    this.memory.onLookup('graphql', true);
    return { body: kept.body, headers: kept.headers, operationName: kept.operationName };
  }

  /**
   * `keptAnswer` without a promise: the kept answer of a current response under the key when every
   * token it was kept under can be read at once (RevisionTokens.tokenNow: SQLite, outside a
   * transaction), else null, and `keptAnswer` then decides (PostgreSQL; a token that changed: the
   * miss is counted inside Apollo). Gateway mode's tokens are the upstream's: always null.
   */
  keptAnswerNow(key: string): KeptAnswer | null {
    if (this.mode !== 'revisions') return null;
    const kept = this.memory.get<StoredResponse>(key);
    if (kept === undefined || kept.headers === null) return null;
    if (!this.revisions.currentNow(kept.tokens)) return null;
    this.memory.onLookup('graphql', true);
    return { body: kept.body, headers: kept.headers, operationName: kept.operationName };
  }

  /** After Apollo answered the request under the key: the headers it sent, for `keptAnswer`. */
  noteHeaders(key: string, headers: Array<[string, string]>): void {
    const kept = this.memory.get<StoredResponse>(key);
    if (kept !== undefined && kept.headers === null) kept.headers = headers;
  }

  /** Gateway mode: a query's response is kept under the ETags of the upstream GETs it read. */
  private upstreamKeeping(rc: GraphQLRequestContext<GraphqlContext>): Keeping | null {
    const reads = rc.contextValue.upstream;
    if (this.mode !== 'upstream' || !this.enabled || rc.operation?.operation !== 'query' || !reads)
      return null;
    return {
      key: this.keyOf(rc),
      operationName: rc.operationName ?? null,
      tokens: () => reads.validators(),
    };
  }

  private keep(trace: Keeping, body: string): void {
    const tokens = trace.tokens();
    if (tokens === null || tokens.length === 0) return;
    const bytes = Buffer.from(body);
    const stored: StoredResponse = { tokens, body: bytes, headers: null, operationName: trace.operationName };
    this.memory.set(trace.key, stored, bytes.length);
  }

  private keyOf(rc: GraphQLRequestContext<GraphqlContext>): string {
    const { request, contextValue } = rc;
    return this.key(
      contextValue.caller.companyId,
      request.http?.headers.get('accept') ?? '',
      request.operationName ?? null,
      request.query ?? rc.queryHash ?? '',
      request.variables ?? null,
    );
  }

  private key(
    companyId: string,
    accept: string,
    operationName: unknown,
    query: string,
    variables: unknown,
  ): string {
    return JSON.stringify(['graphql', companyId, accept, operationName, query, variables]);
  }

  private async current(tokens: Tokens): Promise<boolean> {
    for (const [scope, token] of tokens) {
      if ((await this.revisions.token(scope as RevisionScope)) !== token) return false;
    }
    return true;
  }

  private keepable(document: DocumentNode, operationName: string | null): boolean {
    let byName = this.verdicts.get(document);
    if (!byName) {
      byName = new Map();
      this.verdicts.set(document, byName);
    }
    const name = operationName ?? '';
    let verdict = byName.get(name);
    if (verdict === undefined) {
      verdict = keepableQuery(this.schema, document, operationName);
      byName.set(name, verdict);
    }
    return verdict;
  }
}
