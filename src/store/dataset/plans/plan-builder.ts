import type { Columns, RowOf } from '../../../kernel/columns';
import { amountToCents } from '../../../kernel/money';
import { rowCodec } from '../../rows';
import type { Database } from '../../schema';
import type { WriteStep } from '../bulk-writer';
import { storedInstant } from '../import.check';

export type ImportCounts = Record<string, number>;

/** The steps of an import's write plan as they are made, and the rows each table receives. */
export class PlanBuilder {
  readonly steps: WriteStep[] = [];
  readonly counts: ImportCounts = {};

  /**
   * Inserts `rows`, each the table's columns by name (those of the first row, which every row has),
   * updating the ones whose `key` is already stored; columns a row does not name keep their value.
   */
  upsertRows<Table extends keyof Database, Column extends keyof Database[Table] & string>(
    table: Table,
    rows: Array<Pick<Database[Table], Column>>,
    key: Column[] = ['id' as Column],
  ): void {
    const columns = rows.length ? (Object.keys(rows[0]) as Column[]) : [];
    this.upsert(
      table,
      columns,
      rows.map((row) => columns.map((column) => row[column])),
      key,
    );
  }

  /** Inserts `rows`, each the values of `columns` in order, updating the ones whose `key` is already stored. */
  upsert(table: string, columns: string[], rows: unknown[][], key: string[] = ['id']): void {
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
    this.steps.push({ kind: 'upsert', table, columns, key, rows });
  }

  /** Deletes the rows of `table` whose `column` is one of `values` (lists replaced whole). */
  deleteIn(table: string, column: string, values: string[]): void {
    this.steps.push({ kind: 'deleteIn', table, column, values });
  }

  push(step: WriteStep): void {
    this.steps.push(step);
  }
}

/** The case-insensitive sort key of a name, compared byte-wise on both dialects. */
export function sortKey(name: string): string {
  return name.toLowerCase();
}

export const flag = (value: boolean | undefined, fallback: boolean): 0 | 1 => ((value ?? fallback) ? 1 : 0);
export const lower = (id: string): string => id.toLowerCase();
// Checked by stage 1: every amount has at most two decimals, every instant an offset.
export const cents = (value: number): number => amountToCents(value)!;
export const instant = (value: string): string => storedInstant(value)!;

/** What a record's field says in the dataset schema that its column needs: a uuid, a default. */
interface DatasetField {
  readonly format?: unknown;
  readonly default?: unknown;
}

/**
 * The row of a declared table made from a record of the dataset file by the table's columns and
 * the record's fields in the schema, compiled once: a column takes the field of its name (absent,
 * null), a uuid lower-cased; a `*_cents` column the field without the suffix in cents; a flag the
 * field as 0 or 1 (absent, the schema's default). Columns the file states otherwise are the
 * caller's to set after, and the ones `left` names to add.
 */
export function datasetRowOf<Declared extends Columns, Left extends keyof Declared & string = never>(
  declared: Declared,
  fields: Readonly<Record<string, object>>,
  left: readonly Left[] = [],
): (record: object) => Omit<RowOf<Declared>, Left> {
  const values = rowCodec(declared, left).columns.map((column) => {
    const { codec, nullable } = declared[column];
    const money = column.endsWith('_cents') ? column.slice(0, -'_cents'.length) : undefined;
    const name = money !== undefined && money in fields ? money : column;
    const field = fields[name] as DatasetField | undefined;
    if (!field) throw new Error(`${column}: the dataset record has no field for it`);
    const value = `r.${name}`;
    const orNull = (of: string) => (nullable ? `${value} == null ? null : ${of}` : of);
    if (codec === 'flag') {
      const fallback = typeof field.default === 'boolean' ? ` ?? ${field.default}` : '';
      return `${column}: (${value}${fallback}) ? 1 : 0`;
    }
    if (name !== column) return `${column}: ${orNull(`cents(${value})`)}`;
    if (field.format === 'uuid') return `${column}: ${orNull(`lower(${value})`)}`;
    return `${column}: ${nullable ? `${value} ?? null` : value}`;
  });
  // The names are the declaration's own (checked by rowCodec), so the generated code holds no data.
  return new Function('cents', 'lower', `return (r) => ({ ${values.join(', ')} });`)(cents, lower) as (
    record: object,
  ) => Omit<RowOf<Declared>, Left>;
}
