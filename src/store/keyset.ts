import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Keyset, SliceRequest } from '../kernel/connections';

/**
 * A slice's keyset query parts over a list ordered by `order` (its order expressions, the id
 * last, each as the list's index has it): the predicate that starts past `from` and stops before
 * `to`, as row-value comparisons both SQLite and PostgreSQL seek an index with, and the ORDER BY
 * of the walk (against the list's order for a backward slice, whose rows sliceOfRows reverses).
 */
export function keysetParts(
  order: readonly RawBuilder<unknown>[],
  slice: SliceRequest,
  /** The list runs in descending order (newest first): its walk forward goes down. */
  descending = false,
): { where: RawBuilder<SqlBool>; orderBy: RawBuilder<unknown> } {
  const row = sql`(${sql.join(order)})`;
  const values = (key: Keyset) => sql`(${sql.join(key.map((value) => sql`${value}`))})`;
  // Whether the walk goes up the expressions' ascending order.
  const forward = (slice.direction === 'forward') !== descending;
  const parts: RawBuilder<unknown>[] = [];
  if (slice.from !== null) parts.push(sql`${row} ${sql.raw(forward ? '>' : '<')} ${values(slice.from)}`);
  if (slice.to !== null) parts.push(sql`${row} ${sql.raw(forward ? '<' : '>')} ${values(slice.to)}`);
  const where = parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  const orderBy = sql.join(forward ? order : order.map((expression) => sql`${expression} desc`));
  return { where, orderBy };
}

/**
 * The slice of rows read with `limit + 1` (see keysetParts): in list order, without the row that
 * only told there are more.
 */
export function sliceOfRows<R>(rows: R[], slice: SliceRequest): { rows: R[]; more: boolean } {
  const more = rows.length > slice.limit;
  const kept = more ? rows.slice(0, slice.limit) : rows;
  return { rows: slice.direction === 'forward' ? kept : kept.reverse(), more };
}
