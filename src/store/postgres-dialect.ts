import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresAdapter,
  PostgresDialect,
  PostgresDriver,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type DialectAdapter,
  type Kysely,
  type Driver,
  type MigrationLockOptions,
  type PostgresDialectConfig,
  type QueryResult,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import type { Pool } from 'pg';
import { isLostConnection, onlyReads, readAgainIfLost, TRIES_AGAIN } from './lost-connections';
import type { AfterCommit } from './revision-notices';

/**
 * PostgreSQL as Kysely speaks it, kept to this instance's own schemas. Kysely's introspector reads
 * every schema of the database and checks each by name (`has_schema_privilege(nspname, ...)`), so a
 * schema dropped by another instance or test run meanwhile failed the read ("schema ... does not
 * exist"); and its migration lock is one advisory lock for the whole database, so instances kept in
 * two schemas waited on each other's migrations. Here both are scoped to the search path.
 */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(private readonly settings: PostgresDialectConfig & { afterCommit: AfterCommit }) {
    super(settings);
  }

  override createDriver(): Driver {
    return new CommitWaitingDriver(this.settings, this.settings.afterCommit);
  }

  override createAdapter(): DialectAdapter {
    return new SchemaScopedPostgresAdapter();
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

/**
 * Kysely's driver, with one addition: a connection that wrote and did not roll back is given back
 * to the pool, then the caller waits for `afterCommit` (the other instances hearing the write, see
 * `revision-notices.ts`) before its query or transaction returns. The connection is not held while
 * it waits.
 */
class CommitWaitingDriver extends PostgresDriver {
  private readonly watched = new WeakMap<DatabaseConnection, WatchedConnection>();
  /** A read run again on a connection of its own (see WatchedConnection.executeQuery). */
  private readonly readAlone: ReadAlone;

  constructor(
    config: PostgresDialectConfig,
    private readonly afterCommit: AfterCommit,
  ) {
    super(config);
    const pool = config.pool as Pool;
    this.readAlone = async <R>(query: CompiledQuery) => {
      const result = await pool.query(query.sql, [...query.parameters]);
      return { rows: (result.rows ?? []) as R[] };
    };
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    let connection = this.watched.get(inner);
    if (connection === undefined) {
      connection = new WatchedConnection(inner, this.readAlone);
      this.watched.set(inner, connection);
    }
    connection.written = null;
    connection.inTransaction = false;
    return connection;
  }

  /**
   * A transaction whose BEGIN meets the connection's session ended by the server (nothing of it
   * has run) begins again on another connection, which the transaction keeps.
   */
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: Parameters<PostgresDriver['beginTransaction']>[1],
  ): Promise<void> {
    const watched = connection as WatchedConnection;
    watched.inTransaction = true;
    for (let again = 0; ; again++) {
      try {
        return await super.beginTransaction(watched, settings);
      } catch (error) {
        if (again >= TRIES_AGAIN || !isLostConnection(error)) throw error;
        const lost = watched.inner;
        watched.inner = await super.acquireConnection();
        this.watched.delete(lost);
        this.watched.set(watched.inner, watched);
        await super.releaseConnection(lost as Parameters<PostgresDriver['releaseConnection']>[0]);
      }
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection);
    (connection as WatchedConnection).inTransaction = false;
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await super.rollbackTransaction(connection);
    const watched = connection as WatchedConnection;
    watched.written = null;
    watched.inTransaction = false;
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const watched = connection as WatchedConnection;
    await super.releaseConnection(watched.inner as Parameters<PostgresDriver['releaseConnection']>[0]);
    const written = watched.written;
    if (written === null) return;
    watched.written = null;
    await this.afterCommit.wait(written);
  }
}

/** Statements that only read, among those Kysely sends as raw text. */
const READING_TEXT = /^\s*(select|begin|commit|rollback|savepoint|release|show|set|listen|explain|values)\b/i;

/** The table an INSERT, UPDATE, DELETE or MERGE as Kysely writes it names first. */
const WRITTEN_TABLE = /^(?:insert into|update|delete from|merge into) "([^"]+)"/;

type ReadAlone = <R>(query: CompiledQuery) => Promise<QueryResult<R>>;

/**
 * A pooled connection that notes the tables the statements it ran may have written. A read outside
 * a transaction that meets the connection's session ended by the server before it ran (the pool
 * had not yet heard it) is run again on a connection of its own (lost-connections.ts).
 */
class WatchedConnection implements DatabaseConnection {
  /** Null when nothing was written; `*` stands for a table the statement's text does not name. */
  written: Set<string> | null = null;
  /** Between the transaction's begin and its end: its statements are not run elsewhere. */
  inTransaction = false;

  constructor(
    /** Kysely's connection; another when a transaction's BEGIN found this one's session ended. */
    public inner: DatabaseConnection,
    private readonly readAlone: ReadAlone,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(query).catch((error: unknown) =>
      this.inTransaction || !isLostConnection(error) || !onlyReads(query.sql)
        ? Promise.reject(error)
        : readAgainIfLost(
            () => query.sql,
            () => this.readAlone<R>(query),
          ),
    );
    const table = writtenTable(query, result);
    if (table !== null) (this.written ??= new Set()).add(table);
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The table a statement wrote, `*` when it may have written one it does not name, else null. */
function writtenTable(query: CompiledQuery, result: QueryResult<unknown>): string | null {
  // INSERT, UPDATE, DELETE and MERGE report the rows they touched, whatever built them.
  if (result.numAffectedRows !== undefined) return WRITTEN_TABLE.exec(query.sql)?.[1] ?? '*';
  switch (query.query.kind) {
    case 'SelectQueryNode':
      // A data-modifying WITH reports as a SELECT.
      return query.query.with !== undefined && /\b(insert|update|delete|merge)\b/i.test(query.sql)
        ? '*'
        : null;
    case 'RawNode':
      return READING_TEXT.test(query.sql) ? null : '*';
    default:
      return null;
  }
}

/** Migration lock per schema: `hashtext` of the lock table's schema and name. */
class SchemaScopedPostgresAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`select pg_advisory_lock(hashtext(${lockName(options)}))`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`select pg_advisory_unlock(hashtext(${lockName(options)}))`.execute(db);
  }
}

function lockName(options: MigrationLockOptions): ReturnType<typeof sql> {
  const schema = options.lockTableSchema;
  return schema === undefined
    ? sql`current_schema() || ${'.' + options.lockTable}`
    : sql`${`${schema}.${options.lockTable}`}`;
}

interface ColumnRow {
  schema: string;
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  column_description: string | null;
  auto_incrementing: string | null;
}

/** Tables and views of the schemas on the connection's search path only, read by oid, not name. */
class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables
      ? sql``
      : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`;
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as table_type, a.attname as column,
             a.attnotnull as not_null, a.atthasdef as has_default, typ.typname as type,
             dtns.nspname as type_schema, col_description(a.attrelid, a.attnum) as column_description,
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname)
               as auto_incrementing
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = any(current_schemas(false))
        and c.relkind in ('r', 'v', 'p') and a.attnum >= 0 and not a.attisdropped ${internal}
      order by ns.nspname, c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        isAutoIncrementing: row.auto_incrementing !== null,
        hasDefaultValue: row.has_default,
        comment: row.column_description ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
