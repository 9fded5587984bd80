import type SqliteDatabase from 'better-sqlite3';
import type { RevisionScope, RevisionTokens } from '../../kernel/revisions';
import type { Db } from '../database';
import { withDeadline } from '../../kernel/deadline';
import type { RevisionMemory } from '../revision-notices';

export type { RevisionScope };

/**
 * On SQLite, how long a token read is trusted while this connection has changed no row. A write by
 * this process shows at once (it changes the connection's row count); a write by another process
 * on the same file (`facility-ops import` into a running service) shows within this time.
 */
export const SQLITE_TOKEN_MAX_AGE_MS = 50;

/** PostgreSQL: how long a shared token read is waited for (see RevisionsRepository). */
export const TOKEN_READ_DEADLINE_MS = 5_000;

/** Scopes whose last token is remembered on SQLite; beyond this the memory starts over. */
const MAX_REMEMBERED_SCOPES = 10_000;

interface SqliteReads {
  /** Both counters of a scope, from one snapshot. */
  counters: SqliteDatabase.Statement<[string], { all: number | null; own: number | null }>;
  /** Rows this connection has inserted, updated or deleted since it opened (triggers included). */
  changes: SqliteDatabase.Statement<[], number>;
}

/** Scopes whose tokens one statement reads, waiting for it together. */
interface TokenBatch {
  scopes: Set<string>;
  tokens: Promise<Map<string, string>>;
  settle(read: Promise<Map<string, string>>): void;
}

/** Reads the revision counters that cached pages are validated against. */
export class RevisionsRepository implements RevisionTokens {
  private reads: SqliteReads | null = null;
  private readonly remembered = new Map<string, { token: string; changes: number; at: number }>();
  /** PostgreSQL: the read under way, if any, and the batch that waits for it to end. */
  private reading = false;
  private waiting: TokenBatch | null = null;

  constructor(
    private readonly db: Db,
    /** The raw SQLite handle, for the read every cached request makes; null on PostgreSQL. */
    private readonly sqlite: SqliteDatabase.Database | null = null,
    /**
     * PostgreSQL: how long a shared read is waited for. The requests that asked meanwhile wait for
     * it to end before theirs begins, so a read that never answers must not hold them all.
     */
    private readonly readDeadlineMs = TOKEN_READ_DEADLINE_MS,
    /**
     * PostgreSQL: the tokens this instance heard of (RevisionNotices), served without a read while
     * its lease holds; null reads a token for every kept answer.
     */
    private readonly memory: RevisionMemory | null = null,
  ) {}

  /**
   * The scope's revision token: the bulk-load counter (`*`) and the scope's own. A scope never
   * written has no row yet and counts as 0.
   */
  async token(scope: RevisionScope): Promise<string> {
    if (this.sqlite === null) return this.memory?.known(scope) ?? this.readShared(scope);
    return this.tokenNow(scope) ?? (await this.readTokens([scope])).get(scope)!;
  }

  tokenNow(scope: RevisionScope): string | null {
    if (this.sqlite === null) return this.memory?.known(scope) ?? null;
    return this.readSqlite(this.sqlite, scope, this.sqliteChanges(this.sqlite), performance.now());
  }

  currentNow(tokens: Iterable<readonly [string, string]>): boolean {
    const handle = this.sqlite;
    if (handle === null) {
      for (const [scope, token] of tokens) if (this.tokenNow(scope as RevisionScope) !== token) return false;
      return true;
    }
    // One count of the connection's changes and one clock reading for them all: nothing is
    // written between the reads of this loop.
    const changes = this.sqliteChanges(handle);
    const now = performance.now();
    for (const [scope, token] of tokens) {
      if (this.readSqlite(handle, scope as RevisionScope, changes, now) !== token) return false;
    }
    return true;
  }

  /** SQLite: the rows this connection has changed since it opened (see readSqlite). */
  private sqliteChanges(handle: SqliteDatabase.Database): number {
    this.reads ??= {
      counters: handle.prepare(
        `select (select revision from data_revisions where scope = '*') as "all",
                (select revision from data_revisions where scope = ?) as own`,
      ),
      changes: handle.prepare<[], number>('select total_changes()').pluck(),
    };
    return this.reads.changes.get()!;
  }

  /**
   * SQLite, on the raw handle: every read of a table takes and drops the file's locks, three system
   * calls that cost more than the rest of a cached request, so a token is reused while this
   * connection has changed nothing (`changes`, just read by sqliteChanges) and it is younger than
   * SQLITE_TOKEN_MAX_AGE_MS at `now`. Null inside a transaction (another request's, open on the one
   * connection): the read must then wait for it like any other query, or it would see rows that
   * may yet be rolled back.
   */
  private readSqlite(
    handle: SqliteDatabase.Database,
    scope: RevisionScope,
    changes: number,
    now: number,
  ): string | null {
    const last = this.remembered.get(scope);
    if (last !== undefined && last.changes === changes && now - last.at < SQLITE_TOKEN_MAX_AGE_MS) {
      return last.token;
    }
    if (handle.inTransaction) return null;
    const row = this.reads!.counters.get(scope)!;
    const token = `${Number(row.all ?? 0)}.${Number(row.own ?? 0)}`;
    if (this.remembered.size >= MAX_REMEMBERED_SCOPES) this.remembered.clear();
    this.remembered.set(scope, { token, changes, at: now });
    return token;
  }

  /**
   * PostgreSQL: the token from a read that started after it was asked for, shared with every
   * request that asked while the read before it was out. Each request still sees every write that
   * committed before it asked (its read begins later), and a burst of kept answers (with the
   * `credentials` scope each request's authentication reads) costs one statement per round trip
   * instead of one per request and scope.
   */
  private readShared(scope: RevisionScope): Promise<string> {
    let batch = this.waiting;
    if (batch === null) {
      let settle!: TokenBatch['settle'];
      const tokens = new Promise<Map<string, string>>((resolve) => {
        settle = resolve;
      });
      batch = { scopes: new Set(), tokens, settle };
      this.waiting = batch;
    }
    batch.scopes.add(scope);
    if (!this.reading) this.readWaiting();
    return batch.tokens.then((tokens) => tokens.get(scope)!);
  }

  /** Starts the read of the waiting batch; when it ends, the batch that gathered meanwhile. */
  private readWaiting(): void {
    const batch = this.waiting;
    if (batch === null) return;
    this.waiting = null;
    this.reading = true;
    // A change heard while the read is out may have committed after its snapshot: not remembered.
    const generation = this.memory?.generation ?? 0;
    const read = withDeadline(
      this.readTokens([...batch.scopes]),
      this.readDeadlineMs,
      `the revision counters were not read within ${this.readDeadlineMs} ms`,
    );
    batch.settle(read);
    void read
      .then((tokens) => {
        if (this.memory) for (const [scope, token] of tokens) this.memory.remember(scope, token, generation);
      })
      .catch(() => undefined)
      .finally(() => {
        this.reading = false;
        this.readWaiting();
      });
  }

  /** Each scope's token, read in one statement so that all come from one snapshot. */
  private async readTokens(scopes: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('data_revisions')
      .select(['scope', 'revision'])
      .where('scope', 'in', ['*', ...scopes])
      .execute();
    let all = 0;
    const own = new Map<string, number>();
    for (const row of rows) {
      if (row.scope === '*') all = Number(row.revision);
      else own.set(row.scope, Number(row.revision));
    }
    // A scope never written has no row yet and counts as 0.
    return new Map(scopes.map((scope) => [scope, `${all}.${own.get(scope) ?? 0}`]));
  }
}
