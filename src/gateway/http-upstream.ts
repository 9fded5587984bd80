import { createHash, randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { baseUri, percentEncode, sign, signatureBaseString } from '../auth/oauth1';
import type { UpstreamConfig, UpstreamCredentials } from '../config';
import { DomainError } from '../kernel/errors';
import { maskUrlPath } from '../kernel/sensitive';
import { readIdempotencyKey } from '../kernel/idempotency-key';
import type { Clock } from '../kernel/clock';
import type { ContractUpstream, UpstreamAnswer, UpstreamCall, UpstreamHealth } from './upstream.ports';
import type { CacheMemory } from '../caching/cache-memory';
import { CircuitBreaker } from './circuit-breaker';
import { cachePolicyOf, keptUse, type CachePolicy, type KeptUse } from './cache-policy';
import { activeTracing, injectTraceContext, inSpan, type ActiveTracing } from '../telemetry/tracing';

/** Where the gateway says why an upstream call failed (the caller sees only the kind). */
export type UpstreamLog = (details: Record<string, unknown>, message: string) => void;

/** Upstream answer headers a caller may see; the rest (connection, server, dates) stay here. */
const PASSED_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'etag',
  'idempotent-replayed',
  'retry-after',
  'allow',
];

const ENVELOPE_META = Buffer.from('"meta":{');
/**
 * Deeper than any answer of the contract (a few levels): a deeper body is not one, and a recursive
 * reader of it (GraphQL's mapping of names) would exhaust the stack.
 */
const MAX_ANSWER_DEPTH = 64;
const REQUEST_ID = Buffer.from('"request_id":');

/** What a traced call learns on its way, for its span. */
interface CallNotes {
  collapsed: boolean;
  keptAnswerUsed: boolean;
  status: number | null;
}

/**
 * An upstream GET answer kept for revalidation (under the ETag it came with) and, within its
 * freshness or the operator's bound, for use without asking.
 */
interface KeptUpstreamAnswer {
  etag: string | null;
  answer: UpstreamAnswer;
  /** What its Cache-Control allows (the last revalidation's, when it said anew). */
  policy: CachePolicy;
  /** When the upstream made it, by the gateway's clock: the call's start less the upstream's `Age`. */
  bornAt: number;
  /** The company's count of writes when the call that got it left: a write since makes it stale. */
  writes: number;
  /** The client that got it, for a `private` answer. */
  privateTo: string;
}

/** An exchange's answer, with what its headers let a cache do with it. */
interface Received {
  answer: UpstreamAnswer;
  policy: CachePolicy;
}

/** A GET on its way, and the company's count of writes when it left. */
interface OnItsWay {
  pending: Promise<UpstreamAnswer>;
  writes: number;
}

/** The parts of a GET a kept page is found by. */
export type PageAddress = Pick<UpstreamCall, 'companyId' | 'clientId' | 'path' | 'query'>;

/**
 * A kept answer as the upstream would write it for this request: the same bytes but for
 * `meta.request_id` (meta is the envelope's last key; its request_id comes before `parameters`).
 */
function withRequestId(answer: UpstreamAnswer, requestId: string): UpstreamAnswer {
  if (!/json/.test(answer.headers['content-type'] ?? '')) return answer;
  const body = answer.body;
  const meta = body.lastIndexOf(ENVELOPE_META);
  const at = meta < 0 ? -1 : body.indexOf(REQUEST_ID, meta);
  if (at < 0) return answer;
  const start = at + REQUEST_ID.length;
  const end = body.indexOf(0x2c, start); // the comma after the id (a JSON string without commas)
  if (end < 0) return answer;
  const id = Buffer.from(JSON.stringify(requestId));
  return { ...answer, body: Buffer.concat([body.subarray(0, start), id, body.subarray(end)]) };
}

/** Where a GET's answer is kept and shared: by company, path and query. */
const pageKey = (call: Pick<UpstreamCall, 'companyId' | 'path' | 'query'>): string =>
  JSON.stringify(['upstream', call.companyId.toLowerCase(), call.path, call.query]);

/** Whether a parsed JSON value nests arrays and objects deeper than `limit` (walked without recursion). */
function nestsDeeperThan(value: object, limit: number): boolean {
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    for (const child of Array.isArray(node) ? (node as unknown[]) : Object.values(node)) {
      if (child === null || typeof child !== 'object') continue;
      if (depth + 1 > limit) return true;
      pending.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * Whether the body is the contract's envelope for `status`: a JSON object, nested no deeper than
 * the contract nests, whose last key is `meta` holding that `status_code`.
 */
function isEnvelope(body: Buffer, status: number): boolean {
  if (body[0] !== 0x7b) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8')); // V8 parses without recursion, however deep
  } catch {
    return false;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  if (nestsDeeperThan(parsed, MAX_ANSWER_DEPTH)) return false;
  const keys = Object.keys(parsed);
  const meta = (parsed as { meta?: unknown }).meta;
  return (
    keys[keys.length - 1] === 'meta' &&
    typeof meta === 'object' &&
    meta !== null &&
    (meta as { status_code?: unknown }).status_code === status
  );
}

/**
 * The upstream keeps Idempotency-Keys per client, and every client of a company reaches it as the
 * company's one: a caller's key is scoped to the caller, so two clients never replay each other's
 * payments. A key the contract refuses goes as it is, for the upstream to refuse it as it would.
 */
function scopedIdempotencyKey(clientId: string, key: string): string {
  try {
    readIdempotencyKey(key);
  } catch {
    return key;
  }
  return `gw-${createHash('sha256').update(clientId).update('\n').update(key).digest('base64url')}`;
}

/**
 * Why a call failed. `fault` says whether it was the upstream's own (refused or reset connections,
 * timeouts, 5xx), which the circuit breaker counts; an answer that is not the contract's (malformed,
 * too large) may come of what a caller asked for, so it fails that call alone.
 */
class UpstreamFailure extends Error {
  constructor(
    readonly kind: 'upstream_unavailable' | 'upstream_timeout',
    message: string,
    readonly fault: boolean,
  ) {
    super(message);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Any error of an exchange as an UpstreamFailure. */
function failureOf(error: unknown, maxAnswerBytes: number): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE')
    return new UpstreamFailure(
      'upstream_unavailable',
      `the upstream answer is larger than ${maxAnswerBytes} bytes`,
      false,
    );
  if (typeof code === 'string' && TIMEOUT_CODES.has(code))
    return new UpstreamFailure('upstream_timeout', `${code}: ${message}`, true);
  return new UpstreamFailure(
    'upstream_unavailable',
    `${typeof code === 'string' ? code : 'error'}: ${message}`,
    true,
  );
}

/**
 * The upstream over HTTP (undici): kept-alive, pooled connections (at most `maxConnections`,
 * further calls queue for one), each call signed with one-legged OAuth 1.0 HMAC-SHA1 as the legacy
 * SDKs sign, bounded by `maxAnswerBytes` and by one deadline, `timeoutMs`, over the whole exchange
 * (queueing, connect, headers and body), behind a circuit breaker.
 */
export class HttpUpstream implements ContractUpstream {
  private readonly pool: Pool;
  private readonly base: URL;
  private readonly breaker: CircuitBreaker;
  /** GETs on their way, by company, path and query: a GET made meanwhile shares the answer. */
  private readonly inFlight = new Map<string, OnItsWay>();
  /** Writes made through this gateway, by company (lower-case): each makes its kept pages stale. */
  private readonly writes = new Map<string, number>();
  /** Told of each call (metrics). */
  onCall: (call: 'sent' | 'shared' | 'kept') => void = () => {};

  constructor(
    private readonly config: UpstreamConfig,
    private readonly clock: Clock,
    private readonly log: UpstreamLog,
    /** Where GET answers with an ETag are kept for revalidation (PAGE_CACHE_MB, shared). */
    private readonly memory: CacheMemory | null = null,
  ) {
    this.base = new URL(config.url);
    // Each phase's own timeout is the whole deadline: the deadline of the call (see send) ends it
    // first, and they stand behind it.
    this.pool = new Pool(this.base.origin, {
      connections: config.maxConnections,
      connectTimeout: config.timeoutMs,
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
      maxResponseSize: config.maxAnswerBytes,
    });
    this.breaker = new CircuitBreaker(config.breakerFailures, config.breakerCooldownMs, clock);
  }

  /**
   * A GET the caller did not make conditional is answered from a kept answer while that is fresh
   * (its `max-age`, or the operator's bound, UPSTREAM_MAX_STALE_MS), and otherwise revalidated when
   * the kept answer has an ETag: the upstream answers 304 instead of building the page again, and
   * the kept answer goes back with this request's id. Kept per company, path and query. Any other
   * call (a write) makes every page kept for its company stale at once.
   */
  async call(call: UpstreamCall): Promise<UpstreamAnswer> {
    const tracing = activeTracing();
    return tracing ? this.tracedCall(tracing, call) : this.untracedCall(call, null);
  }

  /**
   * The call as a client span of the request's: method, path, the status the upstream answered,
   * whether the kept answer was used (after a 304), whether it rode on another request's call, and
   * the circuit breaker's state when it was made.
   */
  private tracedCall(tracing: ActiveTracing, call: UpstreamCall): Promise<UpstreamAnswer> {
    const attributes = {
      'http.request.method': call.method,
      'url.path': maskUrlPath(call.path),
      'facility_ops.upstream.breaker_state': this.breaker.state().breaker,
    };
    return inSpan(
      tracing,
      `upstream ${call.method}`,
      attributes,
      async (span) => {
        const notes: CallNotes = { collapsed: false, keptAnswerUsed: false, status: null };
        try {
          return await this.untracedCall(call, notes);
        } finally {
          span.setAttribute('facility_ops.upstream.collapsed', notes.collapsed);
          span.setAttribute('facility_ops.upstream.kept_answer_used', notes.keptAnswerUsed);
          if (notes.status !== null) span.setAttribute('http.response.status_code', notes.status);
        }
      },
      'client',
    );
  }

  private async untracedCall(call: UpstreamCall, notes: CallNotes | null): Promise<UpstreamAnswer> {
    if (call.method !== 'GET' || call.ifNoneMatch !== undefined) {
      this.onCall('sent');
      if (call.method === 'GET') return (await this.callOnce(call, notes)).answer;
      try {
        return (await this.callOnce(call, notes)).answer;
      } finally {
        // Whatever it answered (a failed write may have written), nothing kept before it is fresh.
        this.wrote(call.companyId);
      }
    }
    const key = pageKey(call);
    const kept = this.memory?.enabled ? this.memory.get<KeptUpstreamAnswer>(key) : undefined;
    const use = kept ? this.useOf(kept, call) : 'stale';
    if (kept && use !== 'stale') {
      // Within its bound: no call. Past it but within stale-while-revalidate: one call in the
      // background, however many requests it answers meanwhile.
      if (use === 'stale-while-revalidate') this.revalidateInBackground(key, call);
      this.onCall('kept');
      this.memory!.onLookup('upstream', true);
      if (notes) notes.keptAnswerUsed = true;
      return withRequestId(kept.answer, call.requestId);
    }
    // Collapsed forwarding: concurrent requests for one page (a busy facility's lists, a ledger
    // many actions name) cost the upstream one call; each gets the answer with its own request id.
    // A call that left before a write through the gateway is not shared after it.
    const writes = this.writesOf(call.companyId);
    const onItsWay = this.inFlight.get(key);
    if (onItsWay && onItsWay.writes === writes) {
      this.onCall('shared');
      if (notes) notes.collapsed = true;
      return withRequestId(await onItsWay.pending, call.requestId);
    }
    this.onCall('sent');
    return this.sendShared(key, call, writes, notes);
  }

  /** The GET, as the call other requests for the page share while it is on its way. */
  private async sendShared(
    key: string,
    call: UpstreamCall,
    writes: number,
    notes: CallNotes | null,
  ): Promise<UpstreamAnswer> {
    const pending = this.revalidated(key, call, writes, notes);
    const onItsWay: OnItsWay = { pending, writes };
    this.inFlight.set(key, onItsWay);
    try {
      return await pending;
    } finally {
      if (this.inFlight.get(key) === onItsWay) this.inFlight.delete(key);
    }
  }

  /** One revalidation of a page at a time, its failure logged (by callOnce) and otherwise dropped. */
  private revalidateInBackground(key: string, call: UpstreamCall): void {
    const writes = this.writesOf(call.companyId);
    if (this.inFlight.get(key)?.writes === writes) return;
    this.onCall('sent');
    this.sendShared(key, call, writes, null).catch(() => undefined);
  }

  /**
   * Whether the page kept under `address` is the one with `etag` and may be used now without
   * asking the upstream (see `call`); one within `stale-while-revalidate` is, and is asked again
   * in the background. A whole GraphQL response whose every page is such is sent again as it is.
   */
  keptFresh(address: PageAddress, etag: string, requestId: string): boolean {
    if (!this.memory?.enabled) return false;
    const key = pageKey(address);
    const kept = this.memory.get<KeptUpstreamAnswer>(key);
    if (kept === undefined || kept.etag !== etag) return false;
    const use = this.useOf(kept, address);
    if (use === 'stale-while-revalidate')
      this.revalidateInBackground(key, { ...address, method: 'GET', requestId });
    return use !== 'stale';
  }

  private useOf(kept: KeptUpstreamAnswer, address: Pick<UpstreamCall, 'companyId' | 'clientId'>): KeptUse {
    if (kept.writes !== this.writesOf(address.companyId)) return 'stale';
    if (kept.policy.private && kept.privateTo !== address.clientId) return 'stale';
    return keptUse(kept.policy, this.clock.now().getTime() - kept.bornAt, this.config.maxStaleMs);
  }

  private writesOf(companyId: string): number {
    return this.writes.get(companyId.toLowerCase()) ?? 0;
  }

  private wrote(companyId: string): void {
    const company = companyId.toLowerCase();
    this.writes.set(company, (this.writes.get(company) ?? 0) + 1);
  }

  private async revalidated(
    key: string,
    call: UpstreamCall,
    writes: number,
    notes: CallNotes | null,
  ): Promise<UpstreamAnswer> {
    if (!this.memory?.enabled) return (await this.callOnce(call, notes)).answer;
    const kept = this.memory.get<KeptUpstreamAnswer>(key);
    const sentAt = this.clock.now().getTime();
    const conditional = kept?.etag ? { ...call, ifNoneMatch: kept.etag } : call;
    const { answer, policy } = await this.callOnce(conditional, notes);
    if (kept?.etag && answer.status === 304) {
      if (notes) notes.keptAnswerUsed = true;
      this.memory.onLookup('upstream', true);
      // Freshened by the 304 (RFC 9111 4.3.4), under what it says when it says anything.
      const renewed = answer.headers['cache-control'] === undefined ? kept.policy : policy;
      if (!renewed.store) this.memory.delete(key);
      else
        Object.assign(kept, {
          policy: renewed,
          bornAt: sentAt - policy.ageMs,
          writes,
          privateTo: call.clientId,
        } satisfies Partial<KeptUpstreamAnswer>);
      return withRequestId(kept.answer, call.requestId);
    }
    this.memory.onLookup('upstream', false);
    const etag = answer.headers.etag ?? null;
    // Without an ETag a page is kept only if it may be used without asking for a while.
    const usable = policy.lifetimeMs > 0 || (policy.mayServeStale && this.config.maxStaleMs > 0);
    if (answer.status === 200 && policy.store && (etag !== null || usable)) {
      const entry: KeptUpstreamAnswer = {
        etag,
        answer,
        policy,
        bornAt: sentAt - policy.ageMs,
        writes,
        privateTo: call.clientId,
      };
      this.memory.set(key, entry, answer.body.length);
    } else {
      this.memory.delete(key);
    }
    return answer;
  }

  private async callOnce(call: UpstreamCall, notes: CallNotes | null = null): Promise<Received> {
    const credentials = this.credentialsOf(call.companyId);
    if (!this.breaker.allow()) {
      const { retryAt } = this.breaker.state();
      throw new DomainError(
        'upstream_unavailable',
        `the upstream is unavailable (it failed repeatedly); calls resume after ${retryAt}`,
      );
    }
    let received: Received;
    try {
      received = await this.send(call, credentials);
      this.check(received.answer, call);
    } catch (error) {
      const failure = failureOf(error, this.config.maxAnswerBytes);
      // An answer, however wrong, says the upstream is there: only its own faults count.
      if (failure.fault) this.breaker.failed(failure.message);
      else this.breaker.succeeded();
      this.log(
        { method: call.method, path: call.path, requestId: call.requestId, cause: failure.message },
        'upstream call failed',
      );
      throw new DomainError(
        failure.kind,
        failure.kind === 'upstream_timeout'
          ? `the upstream did not answer within ${this.config.timeoutMs} ms`
          : 'the upstream is unavailable',
      );
    }
    this.breaker.succeeded();
    const { answer } = received;
    if (notes) notes.status = answer.status;
    if (answer.status === 401) {
      // The caller was authenticated here; the upstream refusing the gateway is a setup fault.
      this.log(
        { companyId: call.companyId, path: call.path, requestId: call.requestId },
        "the upstream refused the gateway's credentials for this company",
      );
      throw new DomainError('upstream_unavailable', "the upstream refused the gateway's credentials");
    }
    return received;
  }

  health(): UpstreamHealth {
    return { url: this.config.url, ...this.breaker.state() };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private credentialsOf(companyId: string): UpstreamCredentials {
    const credentials =
      this.config.credentialsByCompany.get(companyId.toLowerCase()) ?? this.config.defaultCredentials;
    if (!credentials) {
      throw new DomainError(
        'forbidden',
        "this client's company has no credentials at the upstream (gateway mode)",
      );
    }
    return credentials;
  }

  /**
   * An answer the contract could give: 5xx is the upstream's fault; a body other than the envelope
   * (well-formed JSON, no deeper than the contract nests, ending in meta with the answer's status)
   * or a PDF is never passed on.
   */
  private check(answer: UpstreamAnswer, call: UpstreamCall): void {
    if (answer.status >= 500)
      throw new UpstreamFailure('upstream_unavailable', `the upstream answered ${answer.status}`, true);
    if (answer.status === 304 && call.ifNoneMatch) return;
    const type = answer.headers['content-type'] ?? '';
    if (answer.status === 200 && /^application\/pdf\b/i.test(type)) return;
    if (!/^application\/json\b/i.test(type) || !isEnvelope(answer.body, answer.status)) {
      throw new UpstreamFailure(
        'upstream_unavailable',
        `the upstream answered ${answer.status} with ${type || 'no content type'}, not the contract's envelope`,
        false,
      );
    }
  }

  private async send(call: UpstreamCall, credentials: UpstreamCredentials): Promise<Received> {
    const path = `${this.base.pathname.replace(/\/+$/, '')}${call.path}`;
    const query = call.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
    let payload: Buffer | null = null;
    let contentType: string | null = null;
    if (call.body?.type === 'json') {
      payload = Buffer.from(call.body.text);
      contentType = 'application/json';
    } else if (call.body?.type === 'form') {
      payload = Buffer.from(
        call.body.pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'),
      );
      contentType = 'application/x-www-form-urlencoded';
    }
    const headers: Record<string, string> = {
      authorization: this.authorization(call, path, credentials),
      'x-request-id': call.requestId,
      'user-agent': 'facility-ops-gateway',
    };
    if (contentType !== null) headers['content-type'] = contentType;
    if (call.idempotencyKey !== undefined) {
      headers['idempotency-key'] = scopedIdempotencyKey(call.clientId, call.idempotencyKey);
    }
    if (call.ifNoneMatch !== undefined) headers['if-none-match'] = call.ifNoneMatch;
    // The caller's trace goes on upstream (W3C traceparent), so the upstream's spans join it.
    const tracing = activeTracing();
    if (tracing) injectTraceContext(tracing, headers);

    // One deadline for the whole exchange: when it passes, the request (and its body) is aborted,
    // and the call fails even if the exchange never noticed.
    const deadline = new AbortController();
    const expired = new Promise<never>((_resolve, reject) => {
      deadline.signal.addEventListener('abort', () => reject(deadline.signal.reason), { once: true });
    });
    const timer = setTimeout(
      () =>
        deadline.abort(
          new UpstreamFailure('upstream_timeout', `no answer within ${this.config.timeoutMs} ms`, true),
        ),
      this.config.timeoutMs,
    );
    const exchange = async (): Promise<Received> => {
      const response = await this.pool.request({
        method: call.method,
        path: query ? `${path}?${query}` : path,
        headers,
        body: payload,
        signal: deadline.signal,
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      const passed: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string') passed[name] = value;
      }
      const header = (name: string) => {
        const value = response.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      const policy = cachePolicyOf({ 'cache-control': header('cache-control'), age: header('age') });
      return { answer: { status: response.statusCode, headers: passed, body }, policy };
    };
    try {
      return await Promise.race([exchange(), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One-legged OAuth 1.0, HMAC-SHA1: query and form parameters signed with the oauth_* ones. */
  private authorization(call: UpstreamCall, path: string, credentials: UpstreamCredentials): string {
    const oauth: Array<[string, string]> = [
      ['oauth_consumer_key', credentials.consumerKey],
      ['oauth_nonce', randomBytes(16).toString('hex')],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', String(Math.floor(this.clock.now().getTime() / 1000))],
      ['oauth_version', '1.0'],
    ];
    const params: Array<[string, string]> = [
      ...call.query.map(([k, v]) => [k, v] as [string, string]),
      ...(call.body?.type === 'form' ? call.body.pairs.map(([k, v]) => [k, v] as [string, string]) : []),
      ...oauth,
    ];
    const base = signatureBaseString({
      method: call.method,
      baseUri: baseUri(this.base.protocol.replace(/:$/, ''), this.base.host, path),
      params,
    });
    const signature = sign(base, credentials.consumerSecret, 'HMAC-SHA1');
    return `OAuth ${[...oauth, ['oauth_signature', signature]].map(([k, v]) => `${k}="${percentEncode(v)}"`).join(', ')}`;
  }
}
