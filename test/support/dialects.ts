import { Client } from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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
