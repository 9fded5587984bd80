/** Deterministic randomness for the demo data: the same seed always gives the same sequence. */

/** MurmurHash3's 32-bit finalizer: a bijection on 32-bit integers that scatters its bits. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a), for seeding streams by name. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** sfc32: small, fast and good enough for demo data; never for secrets. */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(seed ^ 0x243f6a88);
    this.c = mix32(seed ^ 0xb7e15162);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** A whole number in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** A whole number in [min, max], both included. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** A new stream derived from this one's seed and a label, independent of how far this one has run. */
  static derive(seed: number, label: string | number): SeededRandom {
    return new SeededRandom(mix32(seed ^ mix32(typeof label === 'number' ? label : hashString(label))));
  }
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex32(value: number): string {
  return HEX[value >>> 24] + HEX[(value >>> 16) & 0xff] + HEX[(value >>> 8) & 0xff] + HEX[value & 0xff];
}

/**
 * Version-4-shaped UUIDs from 32-bit keys. The first 32 bits are a bijection of the key, so two
 * keys never give the same id; the rest only make the ids look random.
 */
export class ScopedIds {
  private issued: number;

  /** Keys `base` to `base + capacity - 1` belong to this scope; `next` starts after `reserved`. */
  constructor(
    private readonly namespace: number,
    private readonly base: number,
    private readonly capacity: number,
    reserved = 0,
  ) {
    this.issued = reserved;
  }

  next(): string {
    return this.at(this.issued++);
  }

  /** The scope's n-th id, whether or not it was issued yet. */
  at(n: number): string {
    if (n >= this.capacity) throw new RangeError(`id scope of ${this.capacity} exhausted`);
    return uuidFromCounter(this.namespace, (this.base + n) >>> 0);
  }
}

export function uuidFromCounter(namespace: number, counter: number): string {
  const h0 = mix32((counter ^ namespace) >>> 0);
  const h1 = mix32(h0 ^ 0x68e31da4);
  const h2 = mix32(h1 ^ 0xb5297a4d);
  const h3 = mix32(h2 ^ 0x1b56c4e9);
  const a = hex32(h0);
  const b = hex32(((h1 & 0xffff0fff) | 0x00004000) >>> 0);
  const c = hex32(((h2 & 0x3fffffff) | 0x80000000) >>> 0);
  const d = hex32(h3);
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}
