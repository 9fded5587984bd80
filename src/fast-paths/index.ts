/**
 * Fast paths: code that does by hand what a library or Node already does, because measurements
 * showed the plain way costing a hot read a share worth the code (docs/performance.md). Each has
 * its plain implementation beside it, tested to give the same bytes
 * (test/fast-paths/fast-paths.test.ts), and `FAST_PATHS=off` runs the service on the plain ones, so
 * whether each still pays can be measured again (`npm run bench:compare -- --base HEAD
 * --base-env FAST_PATHS=off`):
 *
 * - **The UTF-8 scratch buffer** (scratch-utf8.ts): large answers encoded into a buffer kept warm,
 *   then copied out; plainly, `Buffer.from(text)`.
 * - **The PostgreSQL binary COPY reader with literal parameters** (pg-binary-copy.ts): pages of
 *   stored listings read as bytes, never decoded into strings; plainly, a parameterized query
 *   whose texts are encoded back (pg-plain-query.ts). A read marked reusable is neither: it runs
 *   as a prepared statement (pg-prepared.ts) whichever way, since a COPY cannot be prepared.
 */
import type { Pool } from 'pg';
import type { ByteRowsOf } from './byte-table';
import { pgCopyByteRows } from './pg-binary-copy';
import { pgQueryByteRows } from './pg-plain-query';
import { preparedTexts, TextTable, type PreparedNames } from './pg-prepared';
import { plainUtf8, scratchUtf8 } from './scratch-utf8';

export { PreparedNames } from './pg-prepared';

/** `on` (the default) or `off`, read once: loadConfig refuses any other value of FAST_PATHS. */
export const FAST_PATHS_ON = process.env.FAST_PATHS !== 'off';

/** The UTF-8 bytes of `text`, as `Buffer.from(text)` gives them. */
export const utf8: (text: string) => Buffer = FAST_PATHS_ON ? scratchUtf8 : plainUtf8;

/**
 * ByteRows on PostgreSQL: a reusable read as a prepared statement on `reusablePool` while `names`
 * hands out a name for it, any other on `pool` by the binary COPY (or, with the fast paths off, a
 * plain query).
 */
export function pgByteRows<D>(
  db: D,
  pool: Pool,
  names: PreparedNames,
  onQuery?: (sqlText: string) => void,
  reusablePool: Pool = pool,
): ByteRowsOf<D> {
  const other = FAST_PATHS_ON ? pgCopyByteRows(db, pool, onQuery) : pgQueryByteRows(db, pool, onQuery);
  return async (query, read) => {
    if (query.reusable !== true) return other(query, read);
    const compiled = query.compile(db);
    const name = names.nameOf(query, compiled.sql);
    if (name === undefined) return other(query, read);
    onQuery?.(compiled.sql);
    return read(new TextTable(await preparedTexts(reusablePool, name, compiled)));
  };
}
