import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import { Pool, escapeLiteral, types, type PoolClient, type QueryArrayConfig } from 'pg';
import type { Database } from './schema';
import type { DialectName } from './dialect';

// COUNT(*) and other int8 results arrive as strings by default; ours stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

/**
 * SQLite memory-mapped I/O limit (`PRAGMA mmap_size`): 2 GiB, which SQLite lowers to its build's
 * largest map (2,147,418,112 bytes with this driver).
 */
export const SQLITE_MMAP_BYTES = 2 * 1024 * 1024 * 1024;
/** SQLite page cache per connection, in KiB (`PRAGMA cache_size` takes it negated). */
export const SQLITE_CACHE_KIB = 64 * 1024;
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
  /** Runs a read whose rows come back as arrays of values in select order (see ArrayRows). */
  readonly arrays: ArrayRows;
  /** Runs a read whose rows come back as each column's bytes (see ByteRows). */
  readonly bytes: ByteRows;
  close(): Promise<void>;
}

/**
 * Runs a read whose rows come back as arrays of column values in select order, with no object per
 * row: better-sqlite3's raw mode and pg's array row mode. A cold 500-row page of rate changes spent
 * a third of its time making row objects the repository then copied. Give every selected column
 * its own name: the fallback below goes through Kysely's row objects.
 */
export type ArrayRows = <R extends readonly unknown[]>(query: {
  compile(db: Db): CompiledQuery;
}) => Promise<R[]>;

/**
 * Runs a read whose rows come back as arrays of each column's bytes: a text as its UTF-8, a blob as
 * it is, a number as its decimal digits, null as null. For long texts passed on unread (a page of
 * listings): pg decodes every text it receives into a JavaScript string, and a 173 KB page holding
 * a name with an accent decoded in 0.75 ms and encoded back in 0.7 ms. On PostgreSQL the read runs
 * as a binary COPY, whose rows arrive as bytes; the statement's text must hold no `$` but its
 * parameters'.
 */
export type ByteRows = (query: { compile(db: Db): CompiledQuery }) => Promise<(Buffer | null)[][]>;

export interface StoreOptions {
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  plugins?: KyselyPlugin[];
  /** Called with each SQL statement executed (tests count them). */
  onQuery?: (sqlText: string) => void;
}

/** Opens the database named by a DATABASE_URL (`sqlite:<path>`, `sqlite::memory:` or `postgres://`). */
export function openStore(url: string, options: StoreOptions = {}): Store {
  const log = options.onQuery
    ? (event: { level: string; query: { sql: string } }) => {
        if (event.level === 'query') options.onQuery?.(event.query.sql);
      }
    : undefined;

  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const handle = new SqliteDatabase(file);
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    // Read paths touch scattered pages (a rate change page reads 500 rows, their tenants and units
    // by key). Memory-mapped reads skip a read() call and a copy per page: 500 scattered rate
    // changes with their tenants and units read in about 6 ms instead of 10 (1,290,000 rows), and
    // the 500 scattered rows of a random day in 0.6 ms instead of 1.1 with a 2 GiB map rather than
    // 1 GiB (a 2.2 GB file). The map is address space shared with the OS page cache, not heap;
    // files above it are read through the page cache beyond it. A 64 MiB page cache per connection
    // (the driver's default is 16 MB) holds the indexes and rows of hot pages.
    handle.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
    handle.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: reusingStatements(handle) }),
      plugins: options.plugins,
      log,
    });
    const arrays = sqliteArrays(db, handle, options.onQuery);
    return {
      db,
      dialect: 'sqlite',
      sqlite: handle,
      pgPool: null,
      arrays,
      bytes: async (query) => (await arrays<unknown[]>(query)).map((row) => row.map(sqliteBytes)),
      close: () => db.destroy(),
    };
  }

  const pool = new Pool({
    connectionString: url,
    max: 10,
    options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: options.plugins, log });
  const arrays: ArrayRows = async <R extends readonly unknown[]>(query: {
    compile(db: Db): CompiledQuery;
  }) => {
    const compiled = query.compile(db);
    options.onQuery?.(compiled.sql);
    const config: QueryArrayConfig = {
      text: compiled.sql,
      values: compiled.parameters as unknown[],
      rowMode: 'array',
    };
    const result = await pool.query(config);
    return result.rows as unknown as R[];
  };
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    pgPool: pool,
    arrays,
    bytes: async (query) => {
      const text = `copy (${withLiterals(query.compile(db))}) to stdout (format binary)`;
      options.onQuery?.(text);
      const client = await pool.connect();
      try {
        return binaryCopyRows(await copyOut(client, text));
      } finally {
        client.release();
      }
    },
    close: () => db.destroy(),
  };
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
): ArrayRows {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return async <R extends readonly unknown[]>(query: { compile(db: Db): CompiledQuery }) => {
    const compiled = query.compile(db);
    if (handle.inTransaction) {
      const result = await db.executeQuery<Record<string, unknown>>(compiled);
      return result.rows.map((row) => Object.values(row) as unknown as R);
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
}

/** A column value of ByteRows on SQLite. */
function sqliteBytes(value: unknown): Buffer | null {
  if (value === null) return null;
  if (Buffer.isBuffer(value)) return value;
  return Buffer.from(String(value));
}

/** A parameter as an SQL literal, for a statement that takes none (COPY). */
function literal(value: unknown): string {
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) {
    // In parentheses when negative, so that `a-$1` cannot become a comment.
    return value < 0 ? `(${value})` : String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  throw new TypeError(`a ${typeof value} parameter has no SQL literal here`);
}

/** The compiled query's text with each placeholder ($1, $2, ...) replaced by its value's literal. */
export function withLiterals(compiled: CompiledQuery): string {
  return compiled.sql.replace(/\$(\d+)/g, (_placeholder, position: string) => {
    const index = Number(position) - 1;
    if (index >= compiled.parameters.length) throw new RangeError(`no parameter $${position}`);
    return literal(compiled.parameters[index]);
  });
}

/**
 * Runs a COPY ... TO STDOUT on the client and resolves to what it wrote: a query object pg
 * submits as it is (the form pg-cursor and pg-query-stream take), given each CopyData message's
 * bytes before they are decoded.
 */
function copyOut(client: PoolClient, text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failure: Error | null = null;
    const ignore = () => undefined;
    client.query({
      submit: (connection: { query(text: string): void }) => connection.query(text),
      // The message's chunk is a view of pg's read buffer, which the next read may overwrite.
      handleCopyData: (message: { chunk: Buffer }) => chunks.push(Buffer.from(message.chunk)),
      handleError: (error: Error) => {
        // pg sends no ReadyForQuery to a query that failed; the client is ready for the next one.
        failure = error;
        reject(error);
      },
      handleReadyForQuery: () => {
        if (failure === null) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      },
      handleRowDescription: ignore,
      handleDataRow: ignore,
      handleCommandComplete: ignore,
      handleEmptyQuery: ignore,
      handlePortalSuspended: ignore,
      handleCopyInResponse: ignore,
    } as unknown as Parameters<PoolClient['query']>[0]);
  });
}

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The rows of a binary COPY (PostgreSQL's "COPY" reference, "Binary Format"): a signature, flags
 * and a header extension, then each row as its field count and each field as its length (-1 for
 * null) and bytes, then -1.
 */
export function binaryCopyRows(data: Buffer): (Buffer | null)[][] {
  if (!data.subarray(0, COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) {
    throw new Error('not a binary COPY: the signature is missing');
  }
  let at = COPY_SIGNATURE.length + 4;
  at += 4 + data.readInt32BE(at);
  const rows: (Buffer | null)[][] = [];
  for (let fields = data.readInt16BE(at); fields !== -1; fields = data.readInt16BE(at)) {
    at += 2;
    const row: (Buffer | null)[] = [];
    for (let field = 0; field < fields; field++) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        row.push(null);
      } else {
        row.push(data.subarray(at, at + length));
        at += length;
      }
    }
    rows.push(row);
  }
  return rows;
}

/** True when the database answers a trivial query. */
export async function isReady(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
