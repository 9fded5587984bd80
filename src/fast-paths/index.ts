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
 *   whose texts are encoded back (pg-plain-query.ts).
 */
import type { Pool } from 'pg';
import type { ByteRowsOf } from './byte-table';
import { pgCopyByteRows } from './pg-binary-copy';
import { pgQueryByteRows } from './pg-plain-query';
import { plainUtf8, scratchUtf8 } from './scratch-utf8';

/** `on` (the default) or `off`, read once: loadConfig refuses any other value of FAST_PATHS. */
export const FAST_PATHS_ON = process.env.FAST_PATHS !== 'off';

/** The UTF-8 bytes of `text`, as `Buffer.from(text)` gives them. */
export const utf8: (text: string) => Buffer = FAST_PATHS_ON ? scratchUtf8 : plainUtf8;

/** ByteRows on PostgreSQL. */
export function pgByteRows<D>(db: D, pool: Pool, onQuery?: (sqlText: string) => void): ByteRowsOf<D> {
  return FAST_PATHS_ON ? pgCopyByteRows(db, pool, onQuery) : pgQueryByteRows(db, pool, onQuery);
}
