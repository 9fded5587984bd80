import { redactUrl, type Config } from '../config';
import { openStore, type Store } from '../store/database';
import { migrateToLatest } from '../store/migrator';
import type { CliIo } from './io';

/** Opens the configured database, brings its schema up to date, runs `work`, and closes it. */
export async function withMigratedStore<T>(
  config: Config,
  io: CliIo,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = openStore(config.databaseUrl);
  try {
    await migrate(store, config, io);
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Applies pending migrations and says which. */
export async function migrate(store: Store, config: Config, io: CliIo): Promise<string[]> {
  const result = await migrateToLatest(store.db);
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  for (const name of applied) io.out(`migrated ${describeDatabase(config)}: ${name}`);
  return applied;
}

/** The database URL with any password hidden. */
export function describeDatabase(config: Config): string {
  return redactUrl(config.databaseUrl);
}

/** `1234567` as `1,234,567`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Per-table counts as aligned lines, with a total. */
export function countLines(counts: Record<string, number>): string[] {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const width = Math.max(5, ...entries.map(([table]) => table.length));
  const numbers = Math.max(
    ...[...entries.map(([, n]) => formatCount(n)), formatCount(total)].map((s) => s.length),
  );
  const line = (label: string, n: number) => `  ${label.padEnd(width)}  ${formatCount(n).padStart(numbers)}`;
  return [...entries.map(([table, n]) => line(table, n)), line('total', total)];
}
