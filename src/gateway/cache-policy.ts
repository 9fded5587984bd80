/**
 * What an upstream answer's `Cache-Control` (and `Age`) lets the gateway do with it, read as
 * RFC 9111 says for a private cache: the gateway keeps pages per company (the upstream sees each
 * company's own credentials), so `s-maxage` and `proxy-revalidate`, which bind shared caches
 * only, change nothing; `private` answers are used without asking only for the client that got
 * them. There is no heuristic freshness: an answer without `max-age` is fresh for no time, and
 * only the operator's bound (UPSTREAM_MAX_STALE_MS) lets it be used without asking.
 *
 * A header that does not parse (a directive that is not a token, `max-age=soon`, a negative or
 * repeated `max-age`, an unclosed quote) is treated as absent: the answer is revalidated like one
 * that came without it, never kept forever. A malformed header that names `no-store` still stores
 * nothing.
 */
export interface CachePolicy {
  /** Whether the answer may be kept at all (`no-store` says no). */
  readonly store: boolean;
  /** How long it is fresh (`max-age`), counted from when the upstream made it; 0 without. */
  readonly lifetimeMs: number;
  /**
   * Whether it may be used past its freshness: the operator's bound and `stale-while-revalidate`
   * (not with `must-revalidate`); `no-cache` asks the upstream every time, whatever the bound.
   */
  readonly mayServeStale: boolean;
  readonly noCache: boolean;
  /** `stale-while-revalidate`: answered at once and asked again in the background this long after it goes stale. */
  readonly staleWhileRevalidateMs: number;
  /** `private`: for the client that asked alone. */
  readonly private: boolean;
  /** How old the upstream said it was when sent (`Age`), 0 without or when malformed. */
  readonly ageMs: number;
}

/** No header: fresh for no time, used past that only within the operator's bound. */
export const ABSENT_POLICY: CachePolicy = {
  store: true,
  lifetimeMs: 0,
  mayServeStale: true,
  noCache: false,
  staleWhileRevalidateMs: 0,
  private: false,
  ageMs: 0,
};

/** RFC 9111 1.2.2: a delta-seconds too large to represent counts as 2^31 seconds. */
const MAX_DELTA_SECONDS = 2_147_483_648;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DELTA_SECONDS = /^\d+$/;

/** Seconds as RFC 9111 writes them (digits only), in ms; null when malformed. */
function deltaMs(value: string | undefined): number | null {
  if (value === undefined || !DELTA_SECONDS.test(value)) return null;
  return Math.min(Number(value), MAX_DELTA_SECONDS) * 1000;
}

/**
 * `Cache-Control` as directives (names lower-cased, values unquoted), or null when it does not
 * parse: a list of `token` or `token=(token|quoted-string)`, separated by commas (RFC 9111 5.2).
 */
export function parseCacheControl(header: string): Map<string, Array<string | undefined>> | null {
  const directives = new Map<string, Array<string | undefined>>();
  let at = 0;
  const text = header;
  while (at < text.length) {
    while (at < text.length && /[\s,]/.test(text[at])) at += 1;
    if (at >= text.length) break;
    const nameEnd = text.slice(at).search(/[=,\s]/);
    const name = nameEnd < 0 ? text.slice(at) : text.slice(at, at + nameEnd);
    if (!TOKEN.test(name)) return null;
    at += name.length;
    while (at < text.length && text[at] === ' ') at += 1;
    let value: string | undefined;
    if (text[at] === '=') {
      at += 1;
      if (text[at] === '"') {
        let unquoted = '';
        at += 1;
        for (;;) {
          if (at >= text.length) return null; // unclosed quote
          const c = text[at];
          if (c === '"') break;
          if (c === '\\') {
            at += 1;
            if (at >= text.length) return null;
          }
          unquoted += text[at];
          at += 1;
        }
        at += 1;
        value = unquoted;
      } else {
        const valueEnd = text.slice(at).search(/[,\s]/);
        value = valueEnd < 0 ? text.slice(at) : text.slice(at, at + valueEnd);
        if (!TOKEN.test(value)) return null;
        at += value.length;
      }
    }
    while (at < text.length && text[at] === ' ') at += 1;
    if (at < text.length && text[at] !== ',') return null;
    const key = name.toLowerCase();
    const seen = directives.get(key);
    directives.set(key, seen === undefined ? [value] : [...seen, value]);
  }
  return directives;
}

/**
 * The policy of an answer's headers (lower-case names): `cache-control` and `age`. Many lines of
 * one header come joined with commas, as RFC 9110 5.3 allows.
 */
export function cachePolicyOf(headers: { 'cache-control'?: string; age?: string }): CachePolicy {
  const ageMs = deltaMs(headers.age?.trim()) ?? 0;
  const header = headers['cache-control'];
  if (header === undefined || header.trim() === '') return { ...ABSENT_POLICY, ageMs };
  const directives = parseCacheControl(header);
  if (directives === null) {
    // Treated as absent; but what might say no-store is not kept.
    return { ...ABSENT_POLICY, store: !/no-store/i.test(header), ageMs };
  }
  const has = (name: string) => directives.has(name);
  const only = (name: string): string | undefined | null => {
    const values = directives.get(name);
    if (values === undefined) return undefined;
    // A directive given twice (RFC 9111 4.2.1): the answer is taken as stale.
    return values.length === 1 ? values[0] : null;
  };
  const maxAge = only('max-age');
  let lifetimeMs = 0;
  if (maxAge !== undefined) {
    const ms = deltaMs(maxAge ?? undefined);
    if (ms === null) return { ...ABSENT_POLICY, store: !has('no-store'), ageMs };
    lifetimeMs = ms;
  }
  const swr = only('stale-while-revalidate');
  const mustRevalidate = has('must-revalidate');
  return {
    store: !has('no-store'),
    lifetimeMs,
    mayServeStale: !mustRevalidate && !has('no-cache'),
    // no-cache with a list of fields still asks every time: this cache does not keep parts of an answer.
    noCache: has('no-cache'),
    staleWhileRevalidateMs: mustRevalidate ? 0 : (deltaMs(swr ?? undefined) ?? 0),
    private: has('private'),
    ageMs,
  };
}

/** How a kept answer may serve a request now. */
export type KeptUse = 'fresh' | 'stale-while-revalidate' | 'stale';

/**
 * `ageMs`: how old the kept answer is now. Within its freshness, or past it by at most the
 * operator's `maxStaleMs` (where the policy allows stale answers), it is used without asking;
 * within `stale-while-revalidate` beyond that, used while asked again in the background.
 */
export function keptUse(policy: CachePolicy, ageMs: number, maxStaleMs: number): KeptUse {
  if (policy.noCache) return 'stale';
  const stale = policy.mayServeStale ? maxStaleMs : 0;
  if (ageMs < policy.lifetimeMs + stale) return 'fresh';
  if (policy.mayServeStale && ageMs < policy.lifetimeMs + policy.staleWhileRevalidateMs)
    return 'stale-while-revalidate';
  return 'stale';
}
