import type { CompiledQuery } from 'kysely';
import { ValueTable, type ByteRowsOf, type ByteTable } from '../fast-paths/byte-table';
import type { ArrayRows, Db } from './db';

/** A ByteRows of this store's database (the port and its tables: src/fast-paths/byte-table.ts). */
export type ByteRows = ByteRowsOf<Db>;
export type { ByteTable };
export { ValueTable };

/** ByteRows on SQLite: the read's values, each turned into bytes. */
export function sqliteByteRows(arrays: ArrayRows): ByteRows {
  return async (query, read) =>
    read(new ValueTable((await arrays<unknown[]>(query)).map((row) => row.map(sqliteBytes))));
}

/** A column value of ByteRows on SQLite. */
function sqliteBytes(value: unknown): Buffer | null {
  if (value === null) return null;
  if (Buffer.isBuffer(value)) return value;
  return Buffer.from(String(value));
}

const COMMA = 0x2c;

/**
 * A page of listings read by `rows`, each row its count (as text) and a listing: the count, and
 * the listings joined by commas as the members of a JSON array. A page with no rows carries no
 * count, so then `count`, an expression, is read on its own.
 */
export async function countedListings(
  bytes: ByteRows,
  rows: { compile(db: Db): CompiledQuery },
  arrays: ArrayRows,
  count: { compile(db: Db): CompiledQuery },
): Promise<{ total: number; listings: Buffer }> {
  const page = await bytes(rows, (table) =>
    table.rows > 0
      ? { total: Number(table.value(0, 0)?.toString()), listings: table.joined(1, COMMA) }
      : null,
  );
  if (page !== null) return page;
  const [[total]] = await arrays<[number | string]>(count);
  return { total: Number(total), listings: Buffer.alloc(0) };
}
