import type SqliteDatabase from 'better-sqlite3';
import type { Store } from '../database';
import { ANY_TABLE } from '../revision-notices';

/** One step of a write plan; every step of a plan runs in one transaction. */
export type WriteStep =
  | { kind: 'upsert'; table: string; columns: string[]; key: string[]; rows: unknown[][] }
  | { kind: 'deleteIn'; table: string; column: string; values: string[] }
  | { kind: 'statement'; sql: string; params: unknown[][] }
  | {
      /**
       * Rewrites one column of the rows `select` finds, once for each of `params`: `value` makes a
       * selected row (an array of its values) into its key and the column's new value.
       */
      kind: 'rewrite';
      table: string;
      key: string;
      column: string;
      select: string;
      params: unknown[][];
      value: (row: unknown[]) => [unknown, unknown];
    };

const quote = (name: string) => `"${name}"`;

function upsertSql(step: Extract<WriteStep, { kind: 'upsert' }>, valuesSql: string): string {
  const updates = step.columns.filter((c) => !step.key.includes(c));
  const conflict = updates.length
    ? `do update set ${updates.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`
    : 'do nothing';
  return (
    `insert into ${quote(step.table)} (${step.columns.map(quote).join(', ')}) values ${valuesSql} ` +
    `on conflict (${step.key.map(quote).join(', ')}) ${conflict}`
  );
}

// Large imports come in many parts with the same statements; preparing each once saves the parse.
const statements = new WeakMap<SqliteDatabase.Database, Map<string, SqliteDatabase.Statement>>();

function prepared(handle: SqliteDatabase.Database, sql: string): SqliteDatabase.Statement {
  let cache = statements.get(handle);
  if (!cache) {
    cache = new Map();
    statements.set(handle, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = handle.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** `?` placeholders become `$1, $2, ...` for PostgreSQL. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * Runs a write plan all or nothing. SQLite: prepared statements in one synchronous transaction
 * (nothing else can interleave), or in the caller's transaction when one is open. PostgreSQL: multi-row statements on one connection in a transaction.
 */
export async function runWritePlan(store: Store, plan: WriteStep[]): Promise<void> {
  if (store.sqlite) {
    const handle = store.sqlite;
    const write = () => {
      for (const step of plan) {
        if (step.kind === 'upsert') {
          if (step.rows.length === 0) continue;
          const statement = prepared(handle, upsertSql(step, `(${step.columns.map(() => '?').join(', ')})`));
          for (const row of step.rows) statement.run(row);
        } else if (step.kind === 'deleteIn') {
          const statement = prepared(
            handle,
            `delete from ${quote(step.table)} where ${quote(step.column)} = ?`,
          );
          for (const value of step.values) statement.run(value);
        } else if (step.kind === 'rewrite') {
          const select = prepared(handle, step.select);
          const update = prepared(
            handle,
            `update ${quote(step.table)} set ${quote(step.column)} = ? where ${quote(step.key)} = ?`,
          );
          for (const params of step.params) {
            for (const row of select.raw(true).all(params) as unknown[][]) {
              const [key, value] = step.value(row);
              update.run(value, key);
            }
          }
        } else {
          const statement = prepared(handle, step.sql);
          for (const params of step.params) statement.run(params);
        }
      }
    };
    // Inside a transaction the caller opened (the seed's), the steps join it: a savepoint per plan
    // would copy every page it touches once more. A failure then rolls back the caller's transaction.
    if (handle.inTransaction) write();
    else handle.transaction(write)();
    return;
  }

  const pool = store.pgPool!;
  const client = await pool.connect();
  try {
    await client.query('begin');
    // Imports run one at a time: two that touch the same count and revision rows in different
    // orders would otherwise deadlock, and PostgreSQL would abort one of them.
    await client.query("select pg_advisory_xact_lock(hashtext(current_schema() || ' facility-ops import'))");
    for (const step of plan) {
      if (step.kind === 'upsert') {
        const width = step.columns.length;
        const perStatement = Math.max(1, Math.floor(30000 / width));
        for (let start = 0; start < step.rows.length; start += perStatement) {
          const chunk = step.rows.slice(start, start + perStatement);
          const params: unknown[] = [];
          const tuples = chunk.map((row) => {
            const placeholders = row.map((value) => {
              params.push(value);
              return `$${params.length}`;
            });
            return `(${placeholders.join(', ')})`;
          });
          await client.query(upsertSql(step, tuples.join(', ')), params);
        }
      } else if (step.kind === 'deleteIn') {
        for (let start = 0; start < step.values.length; start += 5000) {
          await client.query(`delete from ${quote(step.table)} where ${quote(step.column)} = any($1)`, [
            step.values.slice(start, start + 5000),
          ]);
        }
      } else if (step.kind === 'rewrite') {
        const select = numbered(step.select);
        const update =
          `update ${quote(step.table)} set ${quote(step.column)} = v.value ` +
          `from unnest($1::text[], $2::text[]) as v(key, value) where ${quote(step.table)}.${quote(step.key)} = v.key`;
        for (const params of step.params) {
          const { rows } = await client.query<unknown[]>({ text: select, values: params, rowMode: 'array' });
          for (let start = 0; start < rows.length; start += 5000) {
            const rewritten = rows.slice(start, start + 5000).map(step.value);
            await client.query(update, [rewritten.map(([key]) => key), rewritten.map(([, value]) => value)]);
          }
        }
      } else {
        const text = numbered(step.sql);
        for (const params of step.params) await client.query(text, params);
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  // Committed: the instances that keep tokens hear it before the import is done.
  await store.afterCommit.wait(ANY_TABLE);
}
