import type SqliteDatabase from 'better-sqlite3';
import type { RevisionScope, RevisionTokens } from '../../kernel/revisions';
import type { Db } from '../database';

export type { RevisionScope };

/**
 * On SQLite, how long a token read is trusted while this connection has changed no row. A write by
 * this process shows at once (it changes the connection's row count); a write by another process
 * on the same file (`facility-ops import` into a running service) shows within this time.
 */
export const SQLITE_TOKEN_MAX_AGE_MS = 50;

/** Scopes whose last token is remembered on SQLite; beyond this the memory starts over. */
const MAX_REMEMBERED_SCOPES = 10_000;

interface SqliteReads {
  /** Both counters of a scope, from one snapshot. */
  counters: SqliteDatabase.Statement<[string], { all: number | null; own: number | null }>;
  /** Rows this connection has inserted, updated or deleted since it opened (triggers included). */
  changes: SqliteDatabase.Statement<[], number>;
}

/** Reads the revision counters that cached pages are validated against. */
export class RevisionsRepository implements RevisionTokens {
  private reads: SqliteReads | null = null;
  private readonly remembered = new Map<string, { token: string; changes: number; at: number }>();

  constructor(
    private readonly db: Db,
    /** The raw SQLite handle, for the read every cached request makes; null on PostgreSQL. */
    private readonly sqlite: SqliteDatabase.Database | null = null,
  ) {}

  /**
   * The scope's revision token: the bulk-load counter (`*`) and the scope's own. A scope never
   * written has no row yet and counts as 0.
   */
  async token(scope: RevisionScope): Promise<string> {
    if (this.sqlite === null) return this.readWithQueryBuilder(scope);
    return this.readSqlite(this.sqlite, scope) ?? this.readWithQueryBuilder(scope);
  }

  tokenNow(scope: RevisionScope): string | null {
    return this.sqlite === null ? null : this.readSqlite(this.sqlite, scope);
  }

  /**
   * SQLite, on the raw handle: every read of a table takes and drops the file's locks, three system
   * calls that cost more than the rest of a cached request, so a token is reused while this
   * connection has changed nothing and it is younger than SQLITE_TOKEN_MAX_AGE_MS. Null inside a
   * transaction (another request's, open on the one connection): the read must then wait for it
   * like any other query, or it would see rows that may yet be rolled back.
   */
  private readSqlite(handle: SqliteDatabase.Database, scope: RevisionScope): string | null {
    this.reads ??= {
      counters: handle.prepare(
        `select (select revision from data_revisions where scope = '*') as "all",
                (select revision from data_revisions where scope = ?) as own`,
      ),
      changes: handle.prepare<[], number>('select total_changes()').pluck(),
    };
    const changes = this.reads.changes.get()!;
    const now = performance.now();
    const last = this.remembered.get(scope);
    if (last !== undefined && last.changes === changes && now - last.at < SQLITE_TOKEN_MAX_AGE_MS) {
      return last.token;
    }
    if (handle.inTransaction) return null;
    const row = this.reads.counters.get(scope)!;
    const token = `${Number(row.all ?? 0)}.${Number(row.own ?? 0)}`;
    if (this.remembered.size >= MAX_REMEMBERED_SCOPES) this.remembered.clear();
    this.remembered.set(scope, { token, changes, at: now });
    return token;
  }

  private async readWithQueryBuilder(scope: RevisionScope): Promise<string> {
    // One statement, so both counters come from one snapshot.
    const rows = await this.db
      .selectFrom('data_revisions')
      .select(['scope', 'revision'])
      .where('scope', 'in', ['*', scope])
      .execute();
    let all = 0;
    let own = 0;
    for (const row of rows) {
      if (row.scope === '*') all = Number(row.revision);
      else own = Number(row.revision);
    }
    return `${all}.${own}`;
  }
}
