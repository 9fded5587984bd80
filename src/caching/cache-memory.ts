/** What an entry costs beyond its bytes: key, tokens and the map's own bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

interface Slot {
  value: unknown;
  size: number;
  /** Asked for since the sweep last passed it (CLOCK: one bit instead of reordering on every hit). */
  used: boolean;
}

/**
 * Memory shared by the caches of serialized answers (REST pages, GraphQL responses), bounded by
 * bytes, and no entry may take more than a quarter. When full, the oldest entries go first unless
 * they were asked for since they were last passed over (the CLOCK approximation of least recently
 * used: a hit only sets a flag).
 */
export class CacheMemory {
  private readonly entries = new Map<string, Slot>();
  private bytes = 0;
  /** Told of every lookup (the metrics count them). */
  onLookup: (cache: 'rest' | 'graphql' | 'upstream', kept: boolean) => void = () => {};

  constructor(readonly maxBytes: number) {}

  /** Whether anything is kept at all (PAGE_CACHE_MB=0 turns caching off). */
  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  /** The entry under `key`, marked as used. */
  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
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
    this.entries.set(key, { value, size, used: false });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      // Map iterates in insertion order; a used entry gets a second chance at the back.
      const [oldest, slot] = this.entries.entries().next().value as [string, Slot];
      this.entries.delete(oldest);
      if (slot.used && oldest !== key) {
        slot.used = false;
        this.entries.set(oldest, slot);
      } else {
        this.bytes -= slot.size;
      }
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }
}
