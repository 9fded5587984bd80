import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { colonFingerprint } from '../adapters/seal/sealing-key';
import { SealSettingError } from '../adapters/seal/document-seal';
import { ConfigError, type Config } from '../config';
import { SecretUnreadable } from '../kernel/secret-box';
import { startOutboxWorker, type OutboxWorkerServices } from '../outbox.runtime';
import { startHousekeeping, startPaymentSettler, type HousekeepingServices } from './housekeeping';
import type { Services } from '../services';
import { openStore, type Store } from '../store/database';
import { hasSchema } from '../store/lookups';
import { refuseNewerDatabase } from '../store/schema-check';
import { CommandFailure } from './args';
import { rebuildStaleListings, sealClearSecrets, secretsStorageLine } from './context';
import type { CliIo } from './io';
import { startConfiguredTracing } from './tracing';

/** How long shutdown waits for requests in flight before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  /** Where the service answers, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Stops accepting connections, lets requests in flight finish (up to a grace period), stops the
   * outbox worker, then closes the database. Safe to call more than once.
   */
  shutdown(): Promise<void>;
}

/** `serve`: the service on HOST:PORT until SIGTERM or SIGINT. */
export async function serveCommand(config: Config, io: CliIo): Promise<number> {
  // Before the store opens: its statements become spans only when tracing is on by then.
  const tracing = startConfiguredTracing(config);
  let store = openStore(config.databaseUrl);
  let server: RunningServer;
  try {
    await requireSchema(store);
    await refuseNewerDatabase(store.db);
    // Never serves listings another release's code wrote: rebuilt first (resumed if stopped).
    await rebuildStaleListings(store, io);
    await sealClearSecrets(store, config, io);
    store = await servingStore(config, store);
    server = await startServer(config, store, io);
  } catch (error) {
    await store.close();
    await tracing?.stop();
    throw error;
  }
  // Heard from before the line that says it listens: whoever reads that line may stop it at once.
  void io.stopRequested();
  io.out(secretsStorageLine(config));
  io.out(`facility-ops listening on ${server.url}`);
  await waitAndStop(server, io);
  // Spans of the last requests leave before the process does.
  await tracing?.stop();
  return 0;
}

/**
 * The store requests are served from. On PostgreSQL its statements run under
 * DATABASE_STATEMENT_TIMEOUT_MS (the sessions' `statement_timeout`), so no request waits for ever
 * on a lock another session holds or on a statement that does not end. On SQLite a statement that
 * meets another process's lock waits for it off the event loop, up to SQLITE_LOCK_WAIT_MS
 * (LockWaitingSqliteDialect), so other requests are answered meanwhile. What runs before serving
 * (migrations, the demo data, a rebuild of the listings, which may rightly take longer) ran on
 * `maintenance`, without either, which is closed here; on PostgreSQL with the limit off it is
 * `maintenance` itself.
 */
export async function servingStore(config: Config, maintenance: Store): Promise<Store> {
  if (maintenance.dialect === 'sqlite') {
    // A database in memory is this connection's alone: no other process can lock it.
    if (config.databaseUrl === 'sqlite::memory:') return maintenance;
    await maintenance.close();
    return openStore(config.databaseUrl, { sqliteLockWaitMs: config.sqliteLockWaitMs });
  }
  if (config.statementTimeoutMs === 0) return maintenance;
  await maintenance.close();
  return openStore(config.databaseUrl, { statementTimeoutMs: config.statementTimeoutMs });
}

/** Waits for a stop signal, then shuts the server down gracefully. */
export async function waitAndStop(server: RunningServer, io: CliIo): Promise<void> {
  const signal = await io.stopRequested();
  io.out(`${signal}: finishing requests in flight, then stopping`);
  await server.shutdown();
  io.out('stopped');
}

/** Builds the app over the store and listens on the configured host and port. */
export async function startServer(config: Config, store: Store, io: CliIo): Promise<RunningServer> {
  const { app, services } = await buildApp({ config, store, logStream: io.logStream });
  try {
    await prepareSeal(services, app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return listen(app, services, config, store);
}

/**
 * Loads the key that seals signed PDFs before serving (the installation's own is made on the
 * first start), so a kept key the passphrase cannot open refuses to start, and logs its fingerprint.
 */
async function prepareSeal(
  services: Pick<Services, 'upstream' | 'seal'>,
  app: FastifyInstance,
): Promise<void> {
  // Gateway mode signs nothing: the upstream serves the signing pages and seals its own files.
  if (services.upstream) return;
  try {
    const key = await services.seal.current();
    app.log.info(
      {
        seal: {
          origin: key.origin,
          generation: key.generation,
          subject: key.subject,
          sha256: colonFingerprint(key.fingerprint),
          notAfter: key.notAfter.toISOString(),
        },
      },
      'signed PDFs are sealed with this certificate',
    );
  } catch (error) {
    // A refused setting, or a kept key SECRETS_KEY cannot open: one line naming it, no start.
    const refused = error instanceof SealSettingError || error instanceof SecretUnreadable;
    throw refused ? new ConfigError([error.message]) : error;
  }
}

/**
 * Listens with an already built app (tests add routes first) and runs the outbox worker, except in
 * gateway mode.
 */
export async function listen(
  app: FastifyInstance,
  services: OutboxWorkerServices & HousekeepingServices,
  config: Config,
  store: Store,
): Promise<RunningServer> {
  await app.listen({ host: config.host, port: config.port });
  // A gateway sends nothing itself: its upstream delivers the e-sign messages and webhooks.
  const outbox = config.upstream ? null : startOutboxWorker(services, config, app.log);
  const housekeeping = startHousekeeping(services, app.log);
  // A gateway takes no payments itself: its upstream settles its own.
  const settler = config.upstream ? null : startPaymentSettler(services, app.log);
  const address = app.server.address() as AddressInfo;
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${urlHost(config.host)}:${address.port}`,
    shutdown: () =>
      (stopping ??= (async () => {
        const grace = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        try {
          await app.close();
        } finally {
          clearTimeout(grace);
        }
        await outbox?.stop();
        await housekeeping.stop();
        await settler?.stop();
        await store.close();
      })()),
  };
}

/** A host as it goes in a URL a user can paste; a wildcard address means this machine. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Refuses to serve a database that was never migrated, with the command that fixes it. */
async function requireSchema(store: Store): Promise<void> {
  if (!(await hasSchema(store))) {
    throw new CommandFailure('the database has no schema yet: run `facility-ops migrate` (or `start`) first');
  }
}
