import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import { CLEAR_SECRETS_CHOICE, redactUrl, type Config } from '../config';
import { openStore, type Store } from '../store/database';
import { listingStates, rebuildListings, isStale } from '../store/listings';
import { LISTING_SOURCES } from '../modules';
import { migrateToLatest } from '../store/migrator';
import { refuseNewerDatabase } from '../store/schema-check';
import { noticeTimes, RevisionNotices } from '../store/revision-notices';
import { resealSecrets } from '../store/secret-columns';
import type { CliIo } from './io';

/** Opens the configured database, brings its schema up to date, runs `work`, and closes it. */
export async function withMigratedStore<T>(
  config: Config,
  io: CliIo,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = openStore(config.databaseUrl);
  let notices: RevisionNotices | null = null;
  try {
    await migrate(store, config, io);
    // PostgreSQL: what this command writes is heard by the running instances before it ends.
    if (store.pgPool && config.revisions.leaseMs > 0) {
      notices = new RevisionNotices(
        store.pgPool,
        store.afterCommit,
        noticeTimes(config.revisions.leaseMs),
        { warn: (_details, message) => io.err(message) },
        false,
      );
      await notices.start();
    }
    return await work(store);
  } finally {
    await notices?.close();
    await store.close();
  }
}

/**
 * Applies pending migrations and says which; rebuilds the stored listings written by other code
 * than this release's; then seals the secrets still in clear when a key is set. A database
 * migrated by a newer release is refused before anything is written.
 */
export async function migrate(store: Store, config: Config, io: CliIo): Promise<string[]> {
  await refuseNewerDatabase(store.db);
  const result = await migrateToLatest(store.db);
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  for (const name of applied) io.out(`migrated ${describeDatabase(config)}: ${name}`);
  await rebuildStaleListings(store, io);
  await sealClearSecrets(store, config, io);
  return applied;
}

/**
 * Rebuilds the stored listings whose version is not this release's (or whose rebuild stopped), in
 * batches the service keeps answering between, and says so; nothing when all are current.
 */
export async function rebuildStaleListings(store: Store, io: CliIo): Promise<void> {
  const states = await listingStates(store.db, LISTING_SOURCES);
  if (!states.some((state) => isStale(state) || state.rebuilding)) return;
  for (const done of await rebuildListings(store, LISTING_SOURCES)) {
    // An empty table (a new installation) only takes the version: nothing to say.
    if (done.written === 0) continue;
    io.out(
      `listings of ${done.table} rebuilt to version ${done.version}: ${formatCount(done.written)} written${done.resumed ? ' (resumed where a stopped rebuild left off)' : ''}`,
    );
  }
}

/**
 * The first start with SECRETS_KEY: every secret still stored in clear is sealed under it (and says
 * how many). Idempotent, and safe with several instances starting at once (conditional writes).
 */
export async function sealClearSecrets(store: Store, config: Config, io: CliIo): Promise<void> {
  const counts = await resealSecrets(store.db, secretBoxFor(config.secrets), 'clear');
  const sealed = Object.values(counts).reduce((sum, n) => sum + n, 0);
  if (sealed > 0) {
    io.out(
      `secrets at rest: sealed ${sealed} stored secret${sealed === 1 ? '' : 's'} that were in clear under key ${config.secrets.keys?.currentId}`,
    );
  }
}

/** One line saying how stored secrets are kept, for the start-up output. */
export function secretsStorageLine(config: Config): string {
  const { storage, keys } = config.secrets;
  if (storage === 'encrypted') {
    const previous = keys && keys.ids.length > 1 ? ` (also opening ${keys.ids.slice(1).join(', ')})` : '';
    return `secrets at rest: encrypted (AES-256-GCM) under key ${keys?.currentId}${previous}`;
  }
  if (storage === 'clear-chosen') {
    return `secrets at rest: in clear, as SECRETS_KEY=${CLEAR_SECRETS_CHOICE} chose`;
  }
  return 'secrets at rest: in clear (no SECRETS_KEY; production refuses to start without one, see docs/operations.md)';
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
