/**
 * A small per-process cache whose entries expire a fixed time after they were stored, measured on
 * the monotonic clock (not the service's Clock, which tests may stop). Meant for rows that change
 * only by import, so that every instance sees a change within `ttlMs`. When full it starts over.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: K): V | undefined {
    return this.entry(key)?.value;
  }

  /** The value with the time (`performance.now()`) it expires at, for a holder that keeps it too. */
  entry(key: K): { readonly value: V; readonly expiresAt: number } | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > performance.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expiresAt: performance.now() + this.ttlMs });
  }
}
