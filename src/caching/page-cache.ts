import type { RevisionScope, RevisionTokens } from '../kernel/revisions';
import type { CacheMemory } from './cache-memory';

/** A serialized page and what its envelope needs besides it. */
export interface CachedPage<M> {
  /**
   * The page's serialized data, ready to send: whole, or in parts sent one after another (a list's
   * joined rows between its opening and closing bytes, which need no copy into one buffer first).
   */
  readonly bytes: Uint8Array | readonly Uint8Array[];
  /** What is kept beside it (pagination, for instance). */
  readonly meta: M;
}

/**
 * What `open` finds: the page kept (or being built for the same revision by another request), or
 * the slot this request fills with the page it builds (or fails with its error).
 */
export type KeptPageLookup<M> =
  | { readonly page: CachedPage<M> }
  | { readonly page: null; keep(page: CachedPage<M>): void; fail(error: unknown): void };

interface Entry {
  token: string;
  page: CachedPage<unknown>;
}

/**
 * Serialized pages kept between requests, each valid while the revision counter of its scope
 * (migration 20261121150000) is unchanged. Every request reads the counter first, then either
 * answers from the page kept under the same token or builds the page and keeps it. Reading the
 * counter before the rows makes a stale page impossible: a write commits its rows and its bump
 * together, so rows read after the counter are at least as new as the token they are kept under.
 * Since the counter lives in the database, a write by any process or instance invalidates the
 * pages of every instance.
 */
export class PageCache {
  private readonly building = new Map<string, Promise<CachedPage<unknown>>>();

  constructor(
    private readonly revisions: RevisionTokens,
    private readonly memory: CacheMemory,
  ) {}

  /**
   * Whether pages are kept at all (PAGE_CACHE_MB=0 keeps none): fixed for the process's life, so a
   * route may be registered without any lookup when it is not.
   */
  get keeps(): boolean {
    return this.memory.enabled;
  }

  /** Bytes held now by every cache sharing this memory (for tests and metrics). */
  get size(): number {
    return this.memory.size;
  }

  /**
   * The page under `key` when it is kept and its scope's token can be read without waiting (see
   * RevisionTokens.tokenNow), else null: `get` then answers, and counts the lookup.
   */
  keptNow<M>(scope: RevisionScope, key: string, onToken?: (token: string) => void): CachedPage<M> | null {
    const entry = this.currentNow(scope, key);
    if (entry === null) return null;
    onToken?.(entry.token);
    this.countKeptAnswer();
    return entry.page as CachedPage<M>;
  }

  /**
   * keptNow without counting the lookup: the page under `key` and the token it is current for,
   * when both are known at once. The kept lane (KeptLane) counts (countKeptAnswer) what it answers.
   */
  currentNow(
    scope: RevisionScope,
    key: string,
  ): { readonly token: string; readonly page: CachedPage<unknown> } | null {
    if (!this.memory.enabled) return null;
    const entry = this.memory.get<Entry>(key);
    if (entry === undefined) return null;
    return this.revisions.tokenNow(scope) === entry.token ? entry : null;
  }

  /** Counts a page answered from memory without a promise (keptNow's, the kept lane's). */
  countKeptAnswer(): void {
    this.memory.onLookup('rest', true);
  }

  /**
   * The page under `key`, from memory when the scope has not changed since it was built, or from
   * `build` (once per key and revision, however many requests ask at the same time).
   */
  async get<M>(
    scope: RevisionScope,
    key: string,
    build: () => Promise<CachedPage<M>>,
    /** Told the scope's revision token the page is valid for: what an ETag of it is made from. */
    onToken?: (token: string) => void,
  ): Promise<CachedPage<M>> {
    if (!this.memory.enabled) return build();
    const found = await this.open<M>(scope, key, onToken);
    if (found.page !== null) return found.page;
    try {
      const page = await build();
      found.keep(page);
      return page;
    } catch (error) {
      found.fail(error);
      throw error;
    }
  }

  /**
   * `get` for a page built by the caller itself after the lookup (a route's handler, after the
   * hook that asked): the page under `key` when kept (or being built for the same revision), else
   * the slot to fill. The token is read first, as `get` reads it; requests asking meanwhile wait
   * for the page the slot is filled with, or fail with the error it fails with.
   */
  async open<M>(
    scope: RevisionScope,
    key: string,
    onToken?: (token: string) => void,
  ): Promise<KeptPageLookup<M>> {
    if (!this.memory.enabled) return { page: null, keep: () => undefined, fail: () => undefined };
    const token = await this.revisions.token(scope);
    onToken?.(token);
    const entry = this.memory.get<Entry>(key);
    const kept = entry !== undefined && entry.token === token;
    this.memory.onLookup('rest', kept);
    if (kept) return { page: entry.page as CachedPage<M> };
    const buildKey = `${token} ${key}`;
    const pending = this.building.get(buildKey) as Promise<CachedPage<M>> | undefined;
    if (pending !== undefined) return { page: await pending };
    let keep!: (page: CachedPage<M>) => void;
    let fail!: (error: unknown) => void;
    const built = new Promise<CachedPage<M>>((resolve, reject) => {
      keep = resolve;
      fail = reject;
    });
    this.building.set(buildKey, built);
    built.then(
      (page) => {
        this.building.delete(buildKey);
        this.keep(key, token, page);
      },
      () => this.building.delete(buildKey),
    );
    return { page: null, keep, fail };
  }

  private keep(key: string, token: string, page: CachedPage<unknown>): void {
    const current = this.memory.peek<Entry>(key);
    // A slower build of an older revision must not replace a newer page.
    if (current !== undefined && newer(current.token, token)) return;
    this.memory.set(key, { token, page } satisfies Entry, byteLength(page.bytes));
  }
}

/** Whether token `a` is later than `b` (both `<bulk>.<own>`, each part only ever growing). */
function newer(a: string, b: string): boolean {
  const [aAll, aOwn] = a.split('.').map(Number);
  const [bAll, bOwn] = b.split('.').map(Number);
  return aAll > bAll || (aAll === bAll && aOwn > bOwn);
}

function byteLength(bytes: CachedPage<unknown>['bytes']): number {
  if (bytes instanceof Uint8Array) return bytes.length;
  return bytes.reduce((total, part) => total + part.length, 0);
}
