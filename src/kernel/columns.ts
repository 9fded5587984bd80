import type { Flag, RecordOf } from './names';

/*
 * A table declared once, in its area's `*.tables.ts`: each column with how it is read. The row type
 * Kysely queries with (`RowOf`), the record the domain works with (`RecordOf`) and the store's
 * codec between them (src/store/rows.ts) are all read off that one declaration.
 */

/** How a column's stored value becomes the record's: as it is, 0/1 as a boolean, text as a number. */
export type ColumnCodec = 'plain' | 'flag' | 'number';

export interface Column<Value> {
  readonly codec: ColumnCodec;
  readonly nullable: boolean;
  /** Carries the column's type; never set. */
  readonly value?: Value;
}

const column = <Value>(codec: ColumnCodec, nullable = false): Column<Value> => ({ codec, nullable });

export const text = column<string>('plain');
/** Text holding one of these values (a kind, a status). */
export const textOf = <Value extends string>(): Column<Value> => column<Value>('plain');
export const integer = column<number>('plain');
/** Integer cents (money) or hundredths. */
export const cents = column<number>('plain');
/** A boolean, stored as 0 or 1 by both dialects. */
export const flag = column<Flag>('flag');
/** A decimal: PostgreSQL hands `numeric` back as text, so it is read with Number. */
export const decimal = column<number>('number');

export function nullable<Value>(of: Column<Value>): Column<Value | null> {
  return column<Value | null>(of.codec, true);
}

export type Columns = Record<string, Column<unknown>>;

/** The row of a declared table, as Kysely types it. */
export type RowOf<Declared extends Columns> = {
  [Name in keyof Declared]: Declared[Name] extends Column<infer Value> ? Value : never;
};

/** The rows of declared tables by their names (an area's part of the store's Database). */
export type TablesOf<Declared extends Record<string, Columns>> = {
  [Table in keyof Declared]: RowOf<Declared[Table]>;
};

/** The record a declared table's row reads into, leaving out the columns named by `Left`. */
export type RecordOfTable<Declared extends Columns, Left extends keyof Declared = never> = RecordOf<
  RowOf<Declared>,
  Left
>;

/** True when two types are the same; a compile-time check that two declarations agree. */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Bytes (a PDF): a blob on SQLite, bytea on PostgreSQL, a Buffer either way. */
export const bytes = column<Buffer>('plain');
