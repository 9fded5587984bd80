import { amountToCents } from '../../../kernel/money';
import type { WriteStep } from '../bulk-writer';
import { storedInstant } from '../import.check';

export type ImportCounts = Record<string, number>;

/** The steps of an import's write plan as they are made, and the rows each table receives. */
export class PlanBuilder {
  readonly steps: WriteStep[] = [];
  readonly counts: ImportCounts = {};

  /** Inserts `rows`, updating the ones whose `key` is already stored. */
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
