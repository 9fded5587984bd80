import { CompiledQuery, type RawBuilder } from 'kysely';
import type { Db } from './database';

/** Shapes kept at most (a page size is part of a shape, so a caller may make many). */
const MAX_SHAPES = 500;

/** Where a statement's parameter goes: stands in for the value at `index` of each call's values. */
class Slot {
  constructor(readonly index: number) {}
}

interface Compiled {
  readonly sql: string;
  /** For each placeholder of `sql`, in order, the index of its value. */
  readonly order: readonly number[];
}

/**
 * Statements compiled once per shape. Kysely builds and compiles a statement of a few fragments in
 * 10-20 us (an item page's took 18), on every request; the text depends only on the statement's
 * shape, which the caller names. `build` makes the statement from stand-ins (`slot(i)` for the i-th
 * of the call's values) and runs once per shape; each call then binds its own values in the order
 * the compiled text wants them. Everything that changes the text (a filter present or not, a
 * literal such as a rowLimit) must be part of the shape. A statement is reusable: on PostgreSQL it
 * is kept prepared (src/fast-paths/pg-prepared.ts), so its plan must not depend on its values.
 */
export class CompiledStatements {
  private readonly compiled = new Map<string, Compiled>();

  constructor(private readonly db: Db) {}

  /** The statement of `shape` with `values` bound, as ArrayRows and ByteRows take a query. */
  statement(
    shape: string,
    values: readonly unknown[],
    build: (slot: (index: number) => unknown) => RawBuilder<unknown>,
  ): { compile(): CompiledQuery; readonly reusable: true } {
    let compiled = this.compiled.get(shape);
    if (compiled === undefined) {
      const query = build((index) => new Slot(index)).compile(this.db);
      const order = query.parameters.map((parameter) => {
        if (!(parameter instanceof Slot))
          throw new TypeError(`statement ${shape} binds a value that is not a slot`);
        return parameter.index;
      });
      compiled = { sql: query.sql, order };
      if (this.compiled.size >= MAX_SHAPES) this.compiled.clear();
      this.compiled.set(shape, compiled);
    }
    const { sql, order } = compiled;
    return {
      compile: () =>
        CompiledQuery.raw(
          sql,
          order.map((index) => values[index]),
        ),
      reusable: true,
    };
  }
}

/**
 * `query` marked reusable: on PostgreSQL it is kept prepared (src/fast-paths/pg-prepared.ts). Only
 * for a text fixed per shape whose plan does not depend on its values (a read by key).
 */
export function reusable(query: { compile(db: Db): CompiledQuery }): {
  compile(db: Db): CompiledQuery;
  readonly reusable: true;
} {
  return { compile: (db) => query.compile(db), reusable: true };
}
