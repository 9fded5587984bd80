import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type LogEvent,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import { Pool, types, type QueryArrayConfig } from 'pg';
import { SchemaScopedPostgresDialect } from './postgres-dialect';
import { isSqliteBusy, LockWaitingSqliteDialect, untilUnlocked } from './sqlite-lock-wait';
import { AfterCommit } from './revision-notices';
import { pgByteRows, PreparedNames } from '../fast-paths';
import { readAgainIfLost } from './lost-connections';
import { sqliteByteRows, type ByteRows } from './byte-rows';
import type { ArrayRows, Db } from './db';
import type { Database } from './schema';
import type { DialectName } from './dialect';
import { activeTracing, recordStatement, type ActiveTracing } from '../telemetry/tracing';

export type { ByteRows } from './byte-rows';
export type { ArrayRows, Db, StoreEvents } from './db';

// COUNT(*) and other int8 results arrive as strings by default; ours stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

/**
 * SQLite memory-mapped I/O limit (`PRAGMA mmap_size`): 2 GiB, which SQLite lowers to its build's
 * largest map (2,147,418,112 bytes with this driver).
 */
export const SQLITE_MMAP_BYTES = 2 * 1024 * 1024 * 1024;
/** SQLite page cache per connection, in KiB (`PRAGMA cache_size` takes it negated). */
export const SQLITE_CACHE_KIB = 64 * 1024;
/**
 * PostgreSQL: connections at most of the pool that runs the reads marked reusable (a page of one
 * facility's items, a ledger's charges, a page of rate changes of up to three days), beside the
 * pool of 10 for every other statement. Its sessions plan each prepared statement once, for any
 * values (`plan_cache_mode = force_generic_plan`). PostgreSQL's own choice plans a statement for its values five times on
 * each connection, then for ever where the statistics make the generic plan look costlier, as
 * they did for the item page where one facility held every item (68 us a page against 4 us,
 * docs/performance.md "Generic plans for the reusable reads"). The setting is a session's, so it is
 * given only to these sessions: Kysely's statements, the longer rate change windows among them,
 * are planned for their values as before.
 */
export const REUSABLE_POOL_MAX = 4;

/**
 * PostgreSQL: the longest a statement waits for a connection of its pool, when every one is busy,
 * or for a new one to connect. Past it the statement fails (its request answers the envelope's
 * internal error, its cause logged) instead of waiting for ever on a database that does not
 * answer, holding its caller's socket and memory. The listeners of revision-notices.ts and
 * live-events have their own deadlines.
 */
export const POOL_WAIT_MS = 10_000;

/**
 * Run on each of the reusable pool's connections before its first read: generic plans, unless the
 * role, the database or the URL chose another mode than PostgreSQL's default (`force_custom_plan`
 * keeps planning every use, as docs/operations.md tells).
 */
const GENERIC_PLANS =
  "select set_config('plan_cache_mode', 'force_generic_plan', false) where current_setting('plan_cache_mode') = 'auto'";

/** Prepared SQLite statements kept, by SQL text, least recently used dropped first. */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * The handle Kysely runs queries on, reusing prepared statements: Kysely prepares every query it
 * runs, and preparing took a sixth of the CPU time of GET flippers. Reuse is safe because Kysely
 * runs one query at a time on its single SQLite connection, and SQLite re-prepares a statement
 * itself when the schema changes under it.
 */
function reusingStatements(handle: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => handle.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = handle.prepare(text);
        if (statements.size >= SQLITE_STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value as string);
        }
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

export interface Store {
  readonly db: Db;
  readonly dialect: DialectName;
  /** The raw better-sqlite3 handle on SQLite, for bulk loading; null on PostgreSQL. */
  readonly sqlite: SqliteDatabase.Database | null;
  /** The pg pool on PostgreSQL, for bulk loading; null on SQLite. */
  readonly pgPool: Pool | null;
  /**
   * PostgreSQL: the pool the reads marked reusable run on, prepared, on generic plans (see
   * REUSABLE_POOL_MAX); null on SQLite.
   */
  readonly pgReusablePool: Pool | null;
  /** Runs a read whose rows come back as arrays of values in select order (see ArrayRows). */
  readonly arrays: ArrayRows;
  /** Runs a read whose rows come back as each column's bytes (see ByteRows). */
  readonly bytes: ByteRows;
  /**
   * PostgreSQL: what a commit that wrote waits for (the instances hearing it, see
   * revision-notices.ts); Kysely's queries wait by themselves, a bulk write on `pgPool` calls it.
   */
  readonly afterCommit: AfterCommit;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  plugins?: KyselyPlugin[];
  /** Called with each SQL statement executed (tests count them). */
  onQuery?: (sqlText: string) => void;
  /** PostgreSQL: the wait for a connection (POOL_WAIT_MS unless told). */
  pgPoolWaitMs?: number;
  /**
   * PostgreSQL: the longest one statement may run, waiting for locks included, after which the
   * server cancels it (its session's `statement_timeout`); none when absent or 0. The serving
   * commands give it (DATABASE_STATEMENT_TIMEOUT_MS); migrations and imports run without one.
   */
  statementTimeoutMs?: number;
  /**
   * SQLite: the longest a statement or a transaction's begin waits for another connection's lock
   * (another process writing the file), waiting without holding the event loop
   * (LockWaitingSqliteDialect); past it, DatabaseLocked. The serving commands give it
   * (SQLITE_LOCK_WAIT_MS); without it the connection waits inside SQLite, up to 5 s, as commands
   * that serve no one may.
   */
  sqliteLockWaitMs?: number;
}

/** Opens the database named by a DATABASE_URL (`sqlite:<path>`, `sqlite::memory:` or `postgres://`). */
export function openStore(url: string, options: StoreOptions = {}): Store {
  // Tracing started first (serve, start) makes each statement a span; off, Kysely times nothing.
  const tracing = activeTracing();
  const system: SqlSystem = url.startsWith('sqlite:') ? 'sqlite' : 'postgresql';
  const log =
    options.onQuery || tracing
      ? (event: LogEvent) => {
          if (event.level === 'query') options.onQuery?.(event.query.sql);
          if (tracing) {
            recordStatement(
              tracing,
              system,
              event.query.sql,
              event.queryDurationMillis,
              event.level === 'error',
            );
          }
        }
      : undefined;

  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const handle = new SqliteDatabase(file);
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
    const lockWaitMs = options.sqliteLockWaitMs;
    handle.pragma(`busy_timeout = ${lockWaitMs === undefined ? 5000 : 0}`);
    // Read paths touch scattered pages (a rate change page reads 500 rows, their tenants and units
    // by key). Memory-mapped reads skip a read() call and a copy per page: 500 scattered rate
    // changes with their tenants and units read in about 6 ms instead of 10 (1,290,000 rows), and
    // the 500 scattered rows of a random day in 0.6 ms instead of 1.1 with a 2 GiB map rather than
    // 1 GiB (a 2.2 GB file). The map is address space shared with the OS page cache, not heap;
    // files above it are read through the page cache beyond it. A 64 MiB page cache per connection
    // (the driver's default is 16 MB) holds the indexes and rows of hot pages.
    handle.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    handle.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    const dialectConfig = { database: reusingStatements(handle) };
    const db = new Kysely<Database>({
      dialect:
        lockWaitMs === undefined
          ? new SqliteDialect(dialectConfig)
          : new LockWaitingSqliteDialect(dialectConfig, handle, lockWaitMs),
      plugins: options.plugins,
      log,
    });
    const untraced = sqliteArrays(db, handle, options.onQuery, lockWaitMs ?? 0);
    const arrays = tracing ? traceArrays(untraced, db, tracing, system) : untraced;
    return {
      db,
      dialect: 'sqlite',
      sqlite: handle,
      pgPool: null,
      pgReusablePool: null,
      arrays,
      bytes: sqliteByteRows(arrays),
      afterCommit: new AfterCommit(),
      close: () => db.destroy(),
    };
  }

  const afterCommit = new AfterCommit();
  // Both pools reach the same database and schema.
  const connection = {
    connectionString: url,
    options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
    // A startup parameter of its own, so a URL's `options` keep theirs.
    ...(options.statementTimeoutMs ? { statement_timeout: Math.trunc(options.statementTimeoutMs) } : {}),
    connectionTimeoutMillis: options.pgPoolWaitMs ?? POOL_WAIT_MS,
  };
  const pool = new Pool({ ...connection, max: 10 });
  survivesLostConnections(pool);
  const reusablePool = new Pool({
    ...connection,
    max: REUSABLE_POOL_MAX,
    // Before the pool hands a new connection out. Should it fail, the connection plans as
    // PostgreSQL chooses: slower, never wrong.
    onConnect: (client) =>
      client.query(GENERIC_PLANS).then(
        () => undefined,
        () => undefined,
      ),
  });
  survivesLostConnections(reusablePool);
  const db = new Kysely<Database>({
    dialect: new SchemaScopedPostgresDialect({ pool, afterCommit }),
    plugins: options.plugins,
    log,
  });
  // Reusable reads (a page of items, a ledger's charges) are kept prepared on each connection.
  const names = new PreparedNames();
  const plainArrays: ArrayRows = async <R extends readonly unknown[]>(query: {
    compile(db: Db): CompiledQuery;
    readonly reusable?: boolean;
  }) => {
    const compiled = query.compile(db);
    options.onQuery?.(compiled.sql);
    const config: QueryArrayConfig = {
      name: names.nameOf(query, compiled.sql),
      text: compiled.sql,
      values: compiled.parameters as unknown[],
      rowMode: 'array',
    };
    const target = config.name === undefined ? pool : reusablePool;
    const result = await readAgainIfLost(
      () => compiled.sql,
      () => target.query(config),
    );
    return result.rows as unknown as R[];
  };
  const arrays = tracing ? traceArrays(plainArrays, db, tracing, system) : plainArrays;
  const byteRows = pgByteRows(db, pool, names, options.onQuery, reusablePool);
  const pgBytes: ByteRows = (query, read) =>
    readAgainIfLost(
      () => query.compile(db).sql,
      () => byteRows(query, read),
    );
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    pgPool: pool,
    pgReusablePool: reusablePool,
    arrays,
    bytes: tracing ? traceBytes(pgBytes, db, tracing, system) : pgBytes,
    afterCommit,
    // Kysely ends its pool once however often it is asked; the reusable pool is ended once too.
    close: () => (closing ??= Promise.all([db.destroy(), reusablePool.end()]).then(() => undefined)),
  };
}

/**
 * A connection the server ends (a restart or failover, `pg_terminate_backend`, the server's own
 * idle-in-transaction limit) must not end the process. pg reports it as an `error` event on the
 * pool while the connection is idle in it, and on the client itself while a caller holds it between
 * statements (a transaction's, a bulk load's), where nothing else listens: an unheard `error`
 * event throws. Heard here, the held connection's next statement fails instead (the request
 * answers the internal error, its cause logged), and the pool drops the connection when it is
 * released (pg-pool does not keep a client that is no longer queryable); the next statement gets a
 * new one.
 */
function survivesLostConnections(pool: Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}

/**
 * ArrayRows on SQLite: the read runs on the raw handle, prepared once per SQL text (its own
 * statements: raw mode is a statement's setting, and Kysely's share its cache). While a Kysely
 * transaction is open on the connection, the read goes through Kysely instead, so it waits its
 * turn rather than reading between that transaction's statements.
 */
function sqliteArrays(
  db: Db,
  handle: SqliteDatabase.Database,
  onQuery: ((sqlText: string) => void) | undefined,
  lockWaitMs: number,
): ArrayRows {
  const statements = new Map<string, SqliteDatabase.Statement>();
  const read = <R>(compiled: CompiledQuery): R[] | Promise<R[]> => {
    // Through Kysely while a transaction is open: it waits its turn (and for a lock itself).
    if (handle.inTransaction) {
      return db
        .executeQuery<Record<string, unknown>>(compiled)
        .then((result) => result.rows.map((row) => Object.values(row) as unknown as R));
    }
    onQuery?.(compiled.sql);
    let statement = statements.get(compiled.sql);
    if (!statement) {
      statement = handle.prepare(compiled.sql).raw(true);
      if (statements.size >= SQLITE_STATEMENT_CACHE_SIZE) statements.clear();
      statements.set(compiled.sql, statement);
    }
    return statement.all(...(compiled.parameters as unknown[])) as R[];
  };
  return async <R extends readonly unknown[]>(query: { compile(db: Db): CompiledQuery }) => {
    const compiled = query.compile(db);
    try {
      return read<R>(compiled);
    } catch (error) {
      // A read meets a lock only while another connection recovers or resets the write-ahead log;
      // tried again, it looks for an open transaction again too.
      if (!isSqliteBusy(error) || lockWaitMs === 0) throw error;
      return untilUnlocked(() => read<R>(compiled), lockWaitMs);
    }
  };
}

/** True when the database answers a trivial query. */
export async function isReady(store: Pick<Store, 'db'>): Promise<boolean> {
  try {
    await sql`select 1`.execute(store.db);
    return true;
  } catch {
    return false;
  }
}

/** Tracing on: the statements of the row readers, which bypass Kysely's log, are spans too. */
function traceArrays(arrays: ArrayRows, db: Db, tracing: ActiveTracing, system: SqlSystem): ArrayRows {
  return ((query) =>
    timed(
      tracing,
      system,
      () => query.compile(db).sql,
      () => arrays(query),
    )) as ArrayRows;
}

function traceBytes(bytes: ByteRows, db: Db, tracing: ActiveTracing, system: SqlSystem): ByteRows {
  return ((query, read) =>
    timed(
      tracing,
      system,
      () => query.compile(db).sql,
      () => bytes(query, read),
    )) as ByteRows;
}

type SqlSystem = 'sqlite' | 'postgresql';

async function timed<T>(
  tracing: ActiveTracing,
  system: SqlSystem,
  text: () => string,
  run: () => Promise<T>,
): Promise<T> {
  const start = performance.now();
  let failed = true;
  try {
    const result = await run();
    failed = false;
    return result;
  } finally {
    recordStatement(tracing, system, text(), performance.now() - start, failed);
  }
}
