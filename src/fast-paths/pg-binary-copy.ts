import type { CompiledQuery } from 'kysely';
import { escapeLiteral, type Pool, type PoolClient } from 'pg';
import type { ByteRowsOf, ByteTable } from './byte-table';

/**
 * ByteRows on PostgreSQL: the read as a binary COPY, its parameters written as literals, into the
 * connection's own buffer (see copyOut); `read` runs before the connection goes back to the pool.
 */
export function pgCopyByteRows<D>(db: D, pool: Pool, onQuery?: (sqlText: string) => void): ByteRowsOf<D> {
  const buffers = new WeakMap<PoolClient, Buffer>();
  return async (query, read) => {
    const text = `copy (${withLiterals(query.compile(db))}) to stdout (format binary)`;
    onQuery?.(text);
    const client = await pool.connect();
    let data: Buffer;
    try {
      data = await copyOut(client, text, buffers);
    } catch (error) {
      // After a failure the connection is closed rather than reused, as pg's own pool.query does.
      client.release(error as Error);
      throw error;
    }
    try {
      return read(new BinaryCopyTable(data));
    } finally {
      client.release();
    }
  };
}

/** A parameter as an SQL literal, for a statement that takes none (COPY). */
function literal(value: unknown): string {
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) {
    // In parentheses when negative, so that `a-$1` cannot become a comment.
    return value < 0 ? `(${value})` : String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  throw new TypeError(`a ${typeof value} parameter has no SQL literal here`);
}

/** The compiled query's text with each placeholder ($1, $2, ...) replaced by its value's literal. */
export function withLiterals(compiled: CompiledQuery): string {
  return compiled.sql.replace(/\$(\d+)/g, (_placeholder, position: string) => {
    const index = Number(position) - 1;
    if (index >= compiled.parameters.length) throw new RangeError(`no parameter $${position}`);
    return literal(compiled.parameters[index]);
  });
}

/** Room first made for a connection's COPY output, doubled as it grows. */
const COPY_FIRST_BYTES = 256 * 1024;
/**
 * The most room a connection keeps between reads: a larger output's room is let go, so a rare
 * long read does not hold memory on every connection.
 */
export const COPY_KEPT_BYTES = 1024 * 1024;

/**
 * Runs a COPY ... TO STDOUT on the client and resolves to what it wrote, in the client's room in
 * `buffers` (made or grown as needed, kept up to COPY_KEPT_BYTES): a query object pg submits as it
 * is (the form pg-cursor and pg-query-stream take), given each CopyData message's bytes before they
 * are decoded. A fresh buffer doubled as it grew cost a 173 KB page 448 KB of new memory and two
 * copies more; the memory, outside the JavaScript heap, also hastens full collections.
 */
function copyOut(client: PoolClient, text: string, buffers: WeakMap<PoolClient, Buffer>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = buffers.get(client) ?? Buffer.allocUnsafeSlow(COPY_FIRST_BYTES);
    let length = 0;
    let failure: Error | null = null;
    const ignore = () => undefined;
    client.query({
      submit: (connection: { query(text: string): void }) => connection.query(text),
      // The message's chunk is a view of pg's read buffer, which the next read may overwrite: it is
      // copied at once, after the others (a page of rows is one message a row).
      handleCopyData: ({ chunk }: { chunk: Buffer }) => {
        if (length + chunk.length > data.length) {
          const grown = Buffer.allocUnsafeSlow(Math.max(2 * data.length, length + chunk.length));
          grown.set(data.subarray(0, length));
          data = grown;
        }
        // set, not copy: Buffer#copy makes a view of the chunk first, 500 of them a page.
        data.set(chunk, length);
        length += chunk.length;
      },
      handleError: (error: Error) => {
        // pg sends no ReadyForQuery to a query that failed; the client is ready for the next one.
        failure = error;
        reject(error);
      },
      handleReadyForQuery: () => {
        if (data.length <= COPY_KEPT_BYTES) buffers.set(client, data);
        else buffers.delete(client);
        if (failure === null) resolve(data.subarray(0, length));
      },
      handleRowDescription: ignore,
      handleDataRow: ignore,
      handleCommandComplete: ignore,
      handleEmptyQuery: ignore,
      handlePortalSuspended: ignore,
      handleCopyInResponse: ignore,
    } as unknown as Parameters<PoolClient['query']>[0]);
  });
}

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The rows of a binary COPY (PostgreSQL's "COPY" reference, "Binary Format"): a signature, flags
 * and a header extension, then each row as its field count and each field as its length (-1 for
 * null) and bytes, then -1. Each value is kept as its place in `data`, not as a Buffer of its own:
 * a page of 500 rows read as 1,000 Buffers took 160 us, and joining them as many again.
 */
export class BinaryCopyTable implements ByteTable {
  /** Per value, row by row: where its bytes start in `data`, and their length (-1 for null). */
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private readonly width: number;

  constructor(private readonly data: Buffer) {
    if (!data.subarray(0, COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) {
      throw new Error('not a binary COPY: the signature is missing');
    }
    let at = COPY_SIGNATURE.length + 4;
    at += 4 + data.readInt32BE(at);
    let width = -1;
    for (let fields = data.readInt16BE(at); fields !== -1; fields = data.readInt16BE(at)) {
      if (width === -1) width = fields;
      if (fields !== width) throw new Error(`a binary COPY row of ${fields} fields among rows of ${width}`);
      at += 2;
      for (let field = 0; field < fields; field++) {
        const length = data.readInt32BE(at);
        at += 4;
        this.starts.push(at);
        this.lengths.push(length);
        if (length > 0) at += length;
      }
    }
    this.width = Math.max(width, 0);
  }

  get rows(): number {
    return this.width === 0 ? 0 : this.starts.length / this.width;
  }

  value(row: number, column: number): Buffer | null {
    const index = row * this.width + column;
    const length = this.lengths[index];
    return length === -1 ? null : this.data.subarray(this.starts[index], this.starts[index] + length);
  }

  /**
   * The rows' values lie in `data` in order, framed by lengths and other columns: the span from
   * the first to the last is copied at once, then each value is moved down over the gap before it
   * (copyWithin: no view made per value). 500 Buffer#copy calls, each making a view first, had
   * taken 60 us of a cold page.
   */
  joined(column: number, separator: number): Buffer {
    const rows = this.rows;
    if (rows === 0) return Buffer.alloc(0);
    const { starts, lengths, width } = this;
    const first = starts[column];
    const lastIndex = (rows - 1) * width + column;
    const end = starts[lastIndex] + Math.max(lengths[lastIndex], 0);
    const joined = Buffer.allocUnsafe(end - first);
    joined.set(this.data.subarray(first, end));
    let at = 0;
    for (let row = 0, index = column; row < rows; row++, index += width) {
      if (row > 0) joined[at++] = separator;
      const length = Math.max(lengths[index], 0);
      const from = starts[index] - first;
      if (from !== at) joined.copyWithin(at, from, from + length);
      at += length;
    }
    return joined.subarray(0, at);
  }
}
