import type { Pool } from 'pg';
import { ValueTable, type ByteRowsOf } from './byte-table';

/** Every column as the text PostgreSQL sent, undecoded (no number or date parsing). */
export const AS_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * ByteRows on PostgreSQL, the plain way: an ordinary parameterized query whose values pg decodes
 * into strings, each encoded back into bytes. The same bytes as the binary COPY reader
 * (pg-binary-copy.ts) for the text and number columns ByteRows reads, at the cost the COPY reader
 * exists to avoid; kept as its reference and as the path `FAST_PATHS=off` takes.
 */
export function pgQueryByteRows<D>(db: D, pool: Pool, onQuery?: (sqlText: string) => void): ByteRowsOf<D> {
  return async (query, read) => {
    const compiled = query.compile(db);
    onQuery?.(compiled.sql);
    const result = await pool.query<unknown[]>({
      text: compiled.sql,
      values: compiled.parameters as unknown[],
      rowMode: 'array',
      types: AS_TEXT,
    });
    const values = result.rows.map((row) =>
      row.map((value) => (value === null ? null : Buffer.from(value as string))),
    );
    return read(new ValueTable(values));
  };
}
