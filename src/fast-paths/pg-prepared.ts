import type { CompiledQuery } from 'kysely';
import type { Pool, QueryArrayConfig } from 'pg';
import type { ByteTable } from './byte-table';
import { AS_TEXT } from './pg-plain-query';

/** Names of prepared statements a pool keeps at most (per connection), whoever asks for them. */
export const MAX_PREPARED = 64;

/**
 * A read marked `reusable` (CompiledStatements' statements, `reusable()`) has a text that is one of
 * a few fixed per shape, so PostgreSQL may keep it prepared on each connection: parsed once, and
 * planned once when its generic plan is as good as a custom one. Only reads whose best plan does not
 * depend on their values are marked: a generic plan is chosen by average selectivities, which suits
 * a page of one facility's items or one ledger's charges, or a window of a few days read day by day
 * along its index (each day an equality), not a window of any length of a company that may hold a
 * million rate changes.
 *
 * The names of a pool's prepared statements, one per text, the same on every connection. Names are
 * never reused for another text and at most `max` are handed out: pg keeps a connection's prepared
 * statements for its life, so a caller able to make many shapes (page sizes, filters) must not make
 * each connection keep many. A text past the limit runs as an ordinary statement, as before.
 */
export class PreparedNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = MAX_PREPARED) {}

  /** The name to prepare `text` under, or undefined to run it unnamed. */
  nameOf(statement: { readonly reusable?: boolean }, text: string): string | undefined {
    if (statement.reusable !== true) return undefined;
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `facility_ops_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  /** How many names were handed out. */
  get size(): number {
    return this.names.size;
  }
}

/**
 * Reads a prepared statement's rows as texts (one array a row). pg decodes them into strings; on
 * a page of a hundred listings that costs less than the planning a binary COPY pays on every
 * request (a COPY's statement cannot be prepared).
 */
export async function preparedTexts(
  pool: Pool,
  name: string,
  compiled: CompiledQuery,
): Promise<(string | null)[][]> {
  const config: QueryArrayConfig = {
    name,
    text: compiled.sql,
    values: compiled.parameters as unknown[],
    rowMode: 'array',
    types: AS_TEXT,
  };
  const result = await pool.query<(string | null)[]>(config);
  return result.rows;
}

/** A ByteTable of texts, each encoded when it is asked for; a column is joined before it is encoded. */
export class TextTable implements ByteTable {
  constructor(private readonly texts: readonly (readonly (string | null)[])[]) {}

  get rows(): number {
    return this.texts.length;
  }

  value(row: number, column: number): Buffer | null {
    const text = this.texts[row][column];
    return text === null ? null : Buffer.from(text);
  }

  /** `separator` is an ASCII byte (below 0x80), a character of its own in UTF-8. */
  joined(column: number, separator: number): Buffer {
    if (separator > 0x7f) throw new RangeError(`separator 0x${separator.toString(16)} is not ASCII`);
    return Buffer.from(this.texts.map((row) => row[column] ?? '').join(String.fromCharCode(separator)));
  }
}
