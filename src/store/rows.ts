import type { Column, Columns, RecordOfTable, RowOf } from '../kernel/columns';
import { camelCase } from '../kernel/names';

/**
 * A declared table's rows read into records and records written back into rows: the one mapping
 * between the store's snake_case columns and the domain's camelCase fields, flags as booleans and
 * decimals as numbers. Both directions are compiled once per table into straight-line functions
 * (as fast-json-stringify compiles a serializer), so reading a page costs what a hand-written
 * mapper costs.
 */
export interface RowCodec<Declared extends Columns, Left extends keyof Declared & string = never> {
  read(row: Pick<RowOf<Declared>, Exclude<keyof Declared, Left>>): RecordOfTable<Declared, Left>;
  write(record: RecordOfTable<Declared, Left>): Omit<RowOf<Declared>, Left>;
  /** The columns a record is read from, in the declared order. */
  readonly columns: readonly Exclude<keyof Declared & string, Left>[];
}

const COLUMN_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The expression reading a column's stored value (`stored`, code naming it) into the record's: as
 * it is, 0/1 as a boolean, text as a number; null stays null where the column may hold it.
 */
function readOf(stored: string, column: Column<unknown>): string {
  if (column.codec === 'plain') return stored;
  const value = column.codec === 'flag' ? `${stored} === 1` : `Number(${stored})`;
  return column.nullable ? `${stored} === null ? null : ${value}` : value;
}

/** The codec of a declared table, leaving out the columns `left` names (a stored listing, say). */
export function rowCodec<Declared extends Columns, Left extends keyof Declared & string = never>(
  declared: Declared,
  left: readonly Left[] = [],
): RowCodec<Declared, Left> {
  const columns = Object.keys(declared).filter(
    (name) => !(left as readonly string[]).includes(name),
  ) as Exclude<keyof Declared & string, Left>[];
  const reads: string[] = [];
  const writes: string[] = [];
  for (const name of columns) {
    // The names are the declaration's own, checked here, so the generated code holds no data.
    if (!COLUMN_NAME.test(name)) throw new Error(`not a column name: ${name}`);
    const field = `record.${camelCase(name)}`;
    const { codec, nullable } = declared[name];
    reads.push(`${camelCase(name)}: ${readOf(`row.${name}`, declared[name])}`);
    const written = codec === 'flag' ? `${field} ? 1 : 0` : field;
    writes.push(
      `${name}: ${nullable && codec === 'flag' ? `${field} === null ? null : ${written}` : written}`,
    );
  }
  return {
    read: new Function('row', `return { ${reads.join(', ')} };`) as RowCodec<Declared, Left>['read'],
    write: new Function('record', `return { ${writes.join(', ')} };`) as RowCodec<Declared, Left>['write'],
    columns,
  };
}

/**
 * A reader of rows that come as arrays of a declared table's columns in the declared order (the
 * positional fast paths: ArrayRows, a select of `rowCodec(...).columns`), the columns `left` names
 * left out, starting at `from`; other values around them (a count, say) are passed over. Compiled
 * like the codec, so it costs what a hand-written positional reader costs.
 */
export function arrayReader<Declared extends Columns, Left extends keyof Declared & string = never>(
  declared: Declared,
  left: readonly Left[] = [],
  /** Where the table's first column is in the array (after another table's columns, say). */
  from = 0,
): (row: readonly unknown[]) => RecordOfTable<Declared, Left> {
  if (!Number.isSafeInteger(from) || from < 0) throw new Error(`not a position: ${from}`);
  const reads = rowCodec(declared, left).columns.map(
    (name, index) => `${camelCase(name)}: ${readOf(`row[${index + from}]`, declared[name])}`,
  );
  return new Function('row', `return { ${reads.join(', ')} };`) as (
    row: readonly unknown[],
  ) => RecordOfTable<Declared, Left>;
}
