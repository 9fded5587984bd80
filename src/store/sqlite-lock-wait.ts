import { setTimeout as sleep } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';

/** The first pause before trying a locked database again, doubled each time up to the longest. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** Whether `error` is SQLite's "the database is locked" (another connection holds what it needs). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Thrown when the database stayed locked by another connection for the whole wait. */
export class DatabaseLocked extends Error {
  constructor(waitMs: number, cause: unknown) {
    super(`the database stayed locked by another connection for ${waitMs} ms`, { cause });
    this.name = 'DatabaseLocked';
  }
}

/**
 * Runs `attempt` until it does not find the database locked, pausing between tries (2 ms, doubled
 * up to 50) without holding the event loop, for at most `waitMs` in all; then DatabaseLocked.
 * `pause` runs in place of each pause (it lends the connection to others meanwhile).
 */
export async function untilUnlocked<T>(
  attempt: () => T | Promise<T>,
  waitMs: number,
  pause: (ms: number) => Promise<void> = (ms) => sleep(ms),
): Promise<T> {
  const until = performance.now() + waitMs;
  let pauseMs = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const left = until - performance.now();
      if (left <= 0) throw new DatabaseLocked(waitMs, error);
      await pause(Math.min(pauseMs, left));
      pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
    }
  }
}

/**
 * SQLite for a serving process: the connection never waits for another process's lock on the
 * event loop. SQLite's own wait (`busy_timeout`) sleeps inside the statement, on the one thread
 * every request shares, so a write that met another process's write (an `import` beside the
 * service, a second instance on the same file, a command such as `clients create`) stopped every
 * other request with it, up to the whole timeout. Here the handle's `busy_timeout` is 0 and:
 *
 * - a transaction begins `immediate`, taking the write lock before its first statement (so no
 *   statement of it meets a lock, and none of it runs twice); while the lock is taken elsewhere the
 *   begin is tried again after a pause, the connection free for other requests' statements
 *   meanwhile;
 * - a statement outside a transaction that finds the database locked is tried again likewise;
 *
 * each for at most `waitMs`, then DatabaseLocked (the request answers the internal error, its cause
 * logged), as SQLite answered after its `busy_timeout`.
 */
export class LockWaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly lockConfig: SqliteDialectConfig,
    private readonly handle: SqliteDatabase.Database,
    private readonly waitMs: number,
  ) {
    super(lockConfig);
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(this.lockConfig, this.handle, this.waitMs);
  }
}

class LockWaitingSqliteDriver extends SqliteDriver {
  /** The driver's own connection, and the same connection trying a locked database again. */
  private own: DatabaseConnection | undefined;
  private waiting: DatabaseConnection | undefined;

  constructor(
    config: SqliteDialectConfig,
    private readonly handle: SqliteDatabase.Database,
    private readonly waitMs: number,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.own = connection;
    this.waiting ??= {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        // Kysely's SQLite connection runs the statement at once and throws when it is locked.
        if (this.handle.inTransaction) return connection.executeQuery<R>(query);
        try {
          return connection.executeQuery<R>(query);
        } catch (error) {
          if (!isSqliteBusy(error)) throw error;
          return this.whileLocked(() => connection.executeQuery<R>(query));
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.waiting;
  }

  override async beginTransaction(): Promise<void> {
    await this.whileLocked(() => this.own!.executeQuery(CompiledQuery.raw('begin immediate')));
  }

  /**
   * `attempt` until the database is not locked; between tries the connection goes back to the
   * line (another request may run a statement on it) and is taken again before the next.
   */
  private whileLocked<T>(attempt: () => Promise<T>): Promise<T> {
    return untilUnlocked(attempt, this.waitMs, async (ms) => {
      await this.releaseConnection();
      try {
        await sleep(ms);
      } finally {
        await super.acquireConnection();
      }
    });
  }
}
