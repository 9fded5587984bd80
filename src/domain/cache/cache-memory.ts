/** What an entry costs beyond its bytes: key, tokens and the map's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Memory shared by the caches of serialized answers (REST pages, GraphQL responses), bounded by
 * bytes: the least recently used entries go first, and no entry may take more than a quarter.
 */
export class CacheMemory {
  private readonly entries = new Map<string, { value: unknown; size: number }>();
  private bytes = 0;
  /** Told of every lookup (the metrics count them). */
  onLookup: (cache: 'rest' | 'graphql', kept: boolean) => void = () => {};

  constructor(readonly maxBytes: number) {}

  /** Whether anything is kept at all (PAGE_CACHE_MB=0 turns caching off). */
  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /** The entry under `key`, now the most recently used. */
  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order: re-inserting makes it the most recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  /** The entry under `key`, leaving the order alone. */
  peek<T>(key: string): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  /** Keeps `value` (of about `bytes`) under `key`, replacing what was there; drops old entries to fit. */
  set(key: string, value: unknown, bytes: number): void {
    this.delete(key);
    const size = bytes + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, { value, size });
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
