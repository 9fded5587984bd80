import { amountToCents } from '../../../kernel/money';
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
