/**
 * Gateway mode's port: a deployment of the /v1 contract this instance stands in front of. The
 * source in src/upstream signs each call with the caller's company's upstream credentials, bounds
 * it in time and size, and turns every failure into a `DomainError` (`upstream_unavailable`,
 * `upstream_timeout`, or `forbidden` for a company without upstream credentials).
 */
export interface UpstreamCall {
  /** The company the call acts for: it picks the upstream credentials. */
  readonly companyId: string;
  /** The gateway's client application making the call: its Idempotency-Keys are its own. */
  readonly clientId: string;
  readonly method: string;
  /** The path, `/v1/...`, without the query. */
  readonly path: string;
  /** Query parameters, decoded, in order (the caller's own oauth_* left out). */
  readonly query: ReadonlyArray<readonly [string, string]>;
  /** The body as sent, and how: form pairs are signed too (RFC 5849 3.4.1.3). */
  readonly body?:
    | { readonly type: 'json'; readonly text: string }
    | { readonly type: 'form'; readonly pairs: ReadonlyArray<readonly [string, string]> };
  /** Sent upstream as X-Request-Id, so the upstream's meta.request_id is this request's. */
  readonly requestId: string;
  readonly idempotencyKey?: string;
  readonly ifNoneMatch?: string;
}

export interface UpstreamAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface UpstreamHealth {
  readonly url: string;
  /** closed: calling; open: answering without calling until `retryAt`; half-open: one trial call. */
  readonly breaker: 'closed' | 'open' | 'half-open';
  readonly retryAt: string | null;
  readonly lastFailure: string | null;
}

export interface ContractUpstream {
  /**
   * One call; an answer the contract allows (any status but 5xx, the envelope or a PDF) or a
   * DomainError. A GET made while the same one (company, path and query) is on its way shares
   * that call's answer, with its own request id.
   */
  call(call: UpstreamCall): Promise<UpstreamAnswer>;
  /**
   * Whether the GET's answer kept with `etag` may be used now without asking the upstream (within
   * its freshness or UPSTREAM_MAX_STALE_MS, no write through the gateway since); one past that but
   * within its `stale-while-revalidate` is, and is asked again in the background.
   */
  keptFresh(
    address: Pick<UpstreamCall, 'companyId' | 'clientId' | 'path' | 'query'>,
    etag: string,
    requestId: string,
  ): boolean;
  /** Told of each call: sent upstream, answered by one on its way, or by a kept answer without asking (metrics). */
  onCall: (call: 'sent' | 'shared' | 'kept') => void;
  health(): UpstreamHealth;
  close(): Promise<void>;
}
