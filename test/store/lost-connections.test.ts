import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { Client, type Pool, type PoolClient } from 'pg';
import { withDeadline } from '../../src/kernel/deadline';
import { reusable } from '../../src/store/compiled-statements';
import { openStore } from '../../src/store/database';
import { POSTGRES_URL } from '../support/dialects';
import { itOnPostgres } from '../support/harness';

/**
 * The server ends a session a caller holds between statements (a restart, a failover,
 * `pg_terminate_backend`, an idle-in-transaction limit): the process goes on, the held statement
 * fails, and the store reads again on a new connection.
 */

/** Generous bound on a server's own reaction: a busy machine is slow, never this slow. */
const DEADLINE_MS = 60_000;

/**
 * Ends the session of `client` from another one and waits for the client to see its connection
 * close: by then pg has reported the server's message (an `error` event when no statement of the
 * client is under way), so an unheard one would already have ended the process.
 */
async function endedByTheServer(admin: Client, client: PoolClient | Client, pid: number): Promise<void> {
  // Not events.once, which listens for `error` too (and so would hear what the store must).
  const closed = new Promise<void>((resolve) => client.once('end', () => resolve()));
  const { rows } = await admin.query<{ ended: boolean }>('select pg_terminate_backend($1) as ended', [pid]);
  expect(rows).toEqual([{ ended: true }]);
  await withDeadline(closed, DEADLINE_MS, `the connection did not close within ${DEADLINE_MS} ms`);
}

/**
 * Ends every session of the pool's connections from another process, and waits there until they
 * are gone, while this process's event loop is blocked: the pool has not yet read the closes when
 * the next statement is handed an idle connection, as a request that comes right after a restart or
 * a failover of the database may be.
 */
function endedUnheard(pids: readonly number[]): void {
  const script = `
    const { Client } = require('pg');
    const admin = new Client({ connectionString: process.argv[1] });
    admin.connect()
      .then(() => admin.query('select bool_and(pg_terminate_backend(pid, 60000)) as ended from unnest($1::int[]) pid', [JSON.parse(process.argv[2])]))
      .then(({ rows }) => { if (!rows[0].ended) process.exit(2); return admin.end(); })
      .catch((error) => { console.error(error); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script, POSTGRES_URL, JSON.stringify(pids)], {
    timeout: DEADLINE_MS,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function backendPid(query: { query: Client['query'] }): Promise<number> {
  const { rows } = await query.query<{ pid: number }>('select pg_backend_pid() as pid');
  return rows[0].pid;
}

describe('a PostgreSQL store whose held connection the server ends', () => {
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect().catch(() => undefined);
  });

  afterAll(async () => {
    await admin.end().catch(() => undefined);
  });

  itOnPostgres(
    'fails the transaction it ended between statements, drops the connection, reads again',
    async () => {
      const store = openStore(POSTGRES_URL);
      const acquired: PoolClient[] = [];
      store.pgPool!.on('acquire', (client) => acquired.push(client));
      try {
        const transaction = store.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // Between the transaction's statements: no statement of the connection is under way.
          await endedByTheServer(admin, acquired[acquired.length - 1], rows[0].pid);
          await sql`select 1`.execute(trx);
        });
        await expect(transaction).rejects.toThrow(/connection error|terminat/i);
        // The ended connection is not handed out again: the pool holds none.
        expect(store.pgPool!.totalCount).toBe(0);
        expect(await store.arrays(sql`select 1 as "one"`)).toEqual([[1]]);
        expect(
          await store.db.transaction().execute((trx) => sql<{ one: number }>`select 1 as "one"`.execute(trx)),
        ).toMatchObject({ rows: [{ one: 1 }] });
      } finally {
        await store.close();
      }
    },
  );

  itOnPostgres(
    'reads on another connection when the idle one it was handed had been ended unheard',
    async () => {
      const store = openStore(POSTGRES_URL);
      try {
        const pids = async (pool: Pool) => {
          const client = await pool.connect();
          try {
            return await backendPid(client);
          } finally {
            client.release();
          }
        };
        // One idle connection in each pool, each ended while the loop is blocked, then read from at once.
        const reads: Array<[string, Pool, () => Promise<unknown>, unknown]> = [
          ['arrays', store.pgPool!, () => store.arrays(sql`select 1 as "one"`), [[1]]],
          ['prepared', store.pgReusablePool!, () => store.arrays(reusable(sql`select 2 as "two"`)), [[2]]],
          [
            'bytes',
            store.pgPool!,
            () => store.bytes(sql`select 'a' as "a"`, (table) => table.value(0, 0)?.toString()),
            'a',
          ],
          [
            'Kysely',
            store.pgPool!,
            () => sql<{ three: number }>`select 3 as "three"`.execute(store.db).then((result) => result.rows),
            [{ three: 3 }],
          ],
        ];
        for (const [name, pool, read, expected] of reads) {
          endedUnheard([await pids(pool)]);
          expect({ name, read: await read() }).toEqual({ name, read: expected });
        }
        // A transaction whose BEGIN met an ended session begins again elsewhere, and runs there.
        endedUnheard([await pids(store.pgPool!)]);
        const begun = await store.db
          .transaction()
          .execute(async (trx) => (await sql<{ four: number }>`select 4 as "four"`.execute(trx)).rows);
        expect(begun).toEqual([{ four: 4 }]);
        // A write is not tried again: its first try may have committed.
        endedUnheard([await pids(store.pgPool!)]);
        await expect(sql`create temporary table t_ended (n int)`.execute(store.db)).rejects.toThrow(
          /connection|terminat/i,
        );
      } finally {
        await store.close();
      }
    },
  );

  itOnPostgres('fails the statement of a connection held out of either pool, then reads again', async () => {
    const store = openStore(POSTGRES_URL);
    try {
      const pools: Array<[string, Pool]> = [
        ['main', store.pgPool!],
        ['reusable', store.pgReusablePool!],
      ];
      for (const [name, pool] of pools) {
        // As a bulk load holds one between its statements.
        const client = await pool.connect();
        try {
          await endedByTheServer(admin, client, await backendPid(client));
          await expect(client.query('select 1')).rejects.toThrow(/connection error|terminat/i);
        } finally {
          client.release();
        }
        expect({ name, connections: pool.totalCount }).toEqual({ name, connections: 0 });
      }
      expect(await store.arrays(sql`select 1 as "one"`)).toEqual([[1]]);
      expect(await store.arrays(reusable(sql`select 2 as "two"`))).toEqual([[2]]);
      expect(await store.bytes(sql`select 'a' as "a"`, (table) => table.value(0, 0)?.toString())).toBe('a');
    } finally {
      await store.close();
    }
  });
});
