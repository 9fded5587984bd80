import type { FastifyRequest } from 'fastify';
import {
  BREAK,
  Kind,
  TypeInfo,
  getNamedType,
  isLeafType,
  parse,
  visit,
  visitWithTypeInfo,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { CacheMemory } from '../domain/cache/cache-memory';
import type { RevisionScope, RevisionsRepository } from '../store/repositories/revisions.repository';

/**
 * Fields that read data under a revision scope. Their resolvers call `trace.track` with the scope
 * before reading, so a kept response is checked against every scope it read.
 */
const TRACKED_FIELDS = new Set([
  'Query.facility',
  'Query.company',
  'Facility.invoiceableItems',
  'Facility.flippers',
  'Company.rateChangeUpdates',
]);

/**
 * Types whose fields hold only data their tracked parent read: a field on one of these is allowed
 * when it is a scalar or enum, or another of these types.
 */
const DERIVED_TYPES = new Set([
  'InvoiceableItemPage',
  'InvoiceableItem',
  'FeeItem',
  'InsuranceItem',
  'RetailItem',
  'ServiceItem',
  'InvoiceableAmount',
  'RateChangeUpdatePage',
  'RateChangeUpdate',
  'Pagination',
]);

/**
 * Records reached by a tracked root field: only their id is allowed besides tracked fields (names
 * and zones come from a per-process cache that is not checked against a scope).
 */
const ROOT_RECORDS = new Set(['Facility', 'Company']);

/** Query texts whose verdict is remembered; beyond this the memory starts over. */
const MAX_REMEMBERED_QUERIES = 1_000;

/** What a kept response is checked against: each scope it read and the token read then. */
type Tokens = Array<[RevisionScope, string]>;

interface StoredResponse {
  tokens: Tokens;
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * The scopes one execution read, each with the token read before its data. Present on the context
 * of an operation that may be kept.
 */
export class ResponseTrace {
  private readonly tokens = new Map<RevisionScope, string>();

  constructor(
    readonly key: string,
    private readonly revisions: RevisionsRepository,
  ) {}

  /** Reads the scope's token before the resolver reads its data. */
  async track(scope: RevisionScope): Promise<void> {
    if (!this.tokens.has(scope)) this.tokens.set(scope, await this.revisions.token(scope));
  }

  entries(): Tokens {
    return [...this.tokens];
  }
}

/** What a POST /graphql is answered with from memory. */
export interface KeptResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * Whole GraphQL responses kept between requests, for queries that read only lists kept fresh by
 * revision counters (invoiceable items, rate change updates, flippers) and the ids of the facility
 * or company they hang from. Which queries qualify is decided from the document alone, once per
 * query text and operation name; any other operation runs as usual. A response is kept only when it has no errors,
 * under the caller's company, the Accept header, the operation name, the query text and the
 * variables, and is answered again while none of the scopes it read has changed.
 */
export class GraphqlResponseCache {
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly revisions: RevisionsRepository,
    private readonly memory: CacheMemory,
    private readonly maxTokens: number,
  ) {}

  /**
   * The kept response for this request if it is still current; otherwise a trace to record the
   * execution with, or null when the request cannot be kept at all.
   */
  async lookup(request: FastifyRequest): Promise<KeptResponse | ResponseTrace | null> {
    if (!this.memory.enabled || !request.caller) return null;
    // JSON bodies only: anything else is Apollo's to judge (CSRF prevention refuses form posts).
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return null;
    const body = request.body as Record<string, unknown> | null | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, variables, operationName, extensions } = body;
    // Persisted-query requests must reach Apollo, which registers their text.
    if (typeof query !== 'string' || extensions !== undefined) return null;
    if (!this.cacheable(query, operationName)) return null;
    const key = JSON.stringify([
      'graphql',
      request.caller.companyId,
      request.headers.accept ?? '',
      operationName ?? null,
      query,
      variables ?? null,
    ]);
    const kept = this.memory.get<StoredResponse>(key);
    const current = kept !== undefined && (await this.current(kept.tokens));
    this.memory.onLookup('graphql', current);
    return current ? kept : new ResponseTrace(key, this.revisions);
  }

  /** Keeps a complete response without errors, under the tokens its execution read. */
  keep(trace: ResponseTrace, status: number, headers: Array<[string, string]>, body: string): void {
    if (status !== 200 || !body.startsWith('{"data":')) return;
    const tokens = trace.entries();
    if (tokens.length === 0) return;
    const bytes = Buffer.from(body);
    this.memory.set(
      trace.key,
      { tokens, status, headers, body: bytes } satisfies StoredResponse,
      bytes.length,
    );
  }

  private async current(tokens: Tokens): Promise<boolean> {
    for (const [scope, token] of tokens) {
      if ((await this.revisions.token(scope)) !== token) return false;
    }
    return true;
  }

  /** Whether the operation is a query reading only tracked fields and data derived from them. */
  private cacheable(query: string, operationName: unknown): boolean {
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
      return false;
    const key = `${operationName ?? ''}\n${query}`;
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      verdict = this.judge(query, operationName ?? null);
      if (this.verdicts.size >= MAX_REMEMBERED_QUERIES) this.verdicts.clear();
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }

  private judge(query: string, operationName: string | null): boolean {
    let document;
    try {
      document = parse(query, { maxTokens: this.maxTokens });
    } catch {
      return false;
    }
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
      const typeInfo = new TypeInfo(this.schema);
      visit(
        definition,
        visitWithTypeInfo(typeInfo, {
          Field(node) {
            const parent = typeInfo.getParentType();
            const field = typeInfo.getFieldDef();
            const type = field ? getNamedType(field.type) : undefined;
            if (!parent || !type || !fieldAllowed(parent.name, node.name.value, type)) {
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
}

function fieldAllowed(parent: string, field: string, type: GraphQLNamedType): boolean {
  if (field === '__typename') return true;
  if (TRACKED_FIELDS.has(`${parent}.${field}`)) return true;
  if (ROOT_RECORDS.has(parent)) return field === 'id';
  if (DERIVED_TYPES.has(parent)) return isLeafType(type) || DERIVED_TYPES.has(type.name);
  return false;
}
