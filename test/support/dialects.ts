import Redis from 'ioredis';
import { Client } from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** POSTGRES_URL with these connection parameters added to its query (`options`, `statement_timeout`, ...). */
export function postgresUrlWith(parameters: Record<string, string>): string {
  return `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}${new URLSearchParams(parameters).toString()}`;
}

/** Dialects asked for by DIALECTS (default: both). */
export function requestedDialects(): Array<'sqlite' | 'postgres'> {
  const raw = process.env.DIALECTS ?? 'sqlite,postgres';
  return raw
    .split(',')
    .map((d) => d.trim())
    .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');
}

export async function postgresAnswers(): Promise<boolean> {
  const client = new Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Whether the Redis tests run: the global setup asked Redis once and said so when it did not answer. */
export function redisActive(): boolean {
  return process.env.REDIS_ANSWERS === 'yes';
}
