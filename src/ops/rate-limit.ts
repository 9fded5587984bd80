/*
 * Kept rather than @fastify/rate-limit (compared by `npm run bench:kept-copies`, about the same
 * requests a second): the limit counts after authentication, by client, and refuses in the
 * contract's envelope with Retry-After; a shared store that is down lets requests through and says
 * so at start, on /readyz and in a logged warning for each request it let through, where the
 * plugin's `skipOnError` is silent; and the signing pages count by link and address in the same store.
 */
import Redis from 'ioredis';

/** Counts requests per key in fixed windows; shared across instances when kept in Redis. */
export interface RateLimitStore {
  /** Counts one request; answers the count in the current window and the ms until it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** `hit` at once, for a store in this process's memory (no promise to wait for). */
  hitNow?(key: string, windowMs: number): { count: number; resetMs: number };
  /** Why the shared store cannot be reached now (requests are then let through), or null. */
  unavailable?(): string | null;
  /** Asks the shared store once: null when it answers, else why not. */
  check?(): Promise<string | null>;
  close(): Promise<void>;
}

/** What an unreachable REDIS_URL turns off, said at start, on /readyz and in each request's warning. */
export const REDIS_DOWN_EFFECT =
  'rate limits (RATE_LIMIT_PER_MINUTE, SIGNING_RATE_LIMIT_*) fail open, every request is let through, until it answers';

/** The seconds until the window resets (at least 1) when `usage` is over `limit`, else null. */
export function retryAfterOf(usage: { count: number; resetMs: number }, limit: number): number | null {
  return usage.count > limit ? Math.max(1, Math.ceil(usage.resetMs / 1000)) : null;
}

/**
 * Counts one request under `key` against `limit` a window: null while within it, else the seconds
 * until the window resets (at least 1). An unreachable store lets the request through, after
 * `unavailable` is told: a counter store that is down must not take the service down with it.
 */
export async function retryAfterOverLimit(
  store: RateLimitStore,
  key: string,
  limit: number,
  windowMs: number,
  unavailable: (error: unknown) => void,
): Promise<number | null> {
  let usage: { count: number; resetMs: number };
  try {
    usage = await store.hit(key, windowMs);
  } catch (error) {
    unavailable(error);
    return null;
  }
  return retryAfterOf(usage, limit);
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    return this.hitNow(key, windowMs);
  }

  hitNow(key: string, windowMs: number): { count: number; resetMs: number } {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.prune(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {}
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private lastError: string | null = null;

  constructor(url: string) {
    // Commands wait for the connection, but never long: a Redis that is down must not stall requests.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 250 });
    // Connection errors surface on the commands; the limiter then lets requests through.
    this.redis.on('error', (error: Error) => (this.lastError = error.message || String(error)));
    this.redis.on('ready', () => (this.lastError = null));
  }

  unavailable(): string | null {
    if (this.redis.status === 'ready') return null;
    return this.lastError ?? `not connected (${this.redis.status})`;
  }

  async check(): Promise<string | null> {
    try {
      await this.redis.ping();
      return null;
    } catch (error) {
      return this.lastError ?? (error instanceof Error ? error.message : String(error));
    }
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const redisKey = `facility-ops:rate:${key}`;
    const result = await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs, 'NX')
      .pttl(redisKey)
      .exec();
    if (!result) throw new Error('rate limit transaction aborted');
    const count = Number(result[0][1]);
    const ttl = Number(result[2][1]);
    return { count, resetMs: ttl > 0 ? ttl : windowMs };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
