import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Client, type PoolClient } from 'pg';
import { reusable } from '../../src/store/compiled-statements';
import { openStore, type Store } from '../../src/store/database';
import { POSTGRES_URL, postgresUrlWith } from '../support/dialects';
import { itOnPostgres } from '../support/harness';

/** A short wait for the tests: what they show does not depend on its length. */
const WAIT_MS = 300;

/** Whether `promise` settles within `ms`, as a test's generous bound on "does not wait for ever". */
async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.allSettled([promise]).then(([result]) => result), bound]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a PostgreSQL store that cannot get a connection fails its statements instead of waiting', () => {
  it('fails every kind of read against a server that accepts and never answers, then closes', async () => {
    // A TCP peer that takes the connection and says nothing: a database behind a dead network path.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const store = openStore(`postgres://postgres@127.0.0.1:${port}/test`, { pgPoolWaitMs: WAIT_MS });
    try {
      // All at once, each settled as it ends. Generous bound: a busy machine may be slow to fire
      // the pool's timer, never this slow.
      const reads = await Promise.all(
        (
          [
            ['Kysely', () => store.db.selectFrom('companies').selectAll().execute()],
            ['arrays', () => store.arrays(sql`select 1`)],
            ['bytes (COPY)', () => store.bytes(sql`select 'a' as "a"`, (table) => table.rows)],
            ['bytes (prepared)', () => store.bytes(reusable(sql`select 'a' as "a"`), (table) => table.rows)],
          ] as Array<[string, () => Promise<unknown>]>
        ).map(async ([kind, read]) => {
          const settled = await settlesWithin<unknown>(read(), 60_000);
          return {
            kind,
            status: settled.status,
            timedOut: settled.status === 'rejected' && /timeout/i.test(String(settled.reason)),
          };
        }),
      );
      for (const read of reads) expect(read).toEqual({ kind: read.kind, status: 'rejected', timedOut: true });
      expect(await settlesWithin(store.close(), 60_000)).toMatchObject({ status: 'fulfilled' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  itOnPostgres(
    'a statement waiting for a busy pool fails after the wait, and the pool serves again once freed',
    async () => {
      const store: Store = openStore(POSTGRES_URL, { pgPoolWaitMs: WAIT_MS });
      const held: PoolClient[] = [];
      try {
        // Every connection of the main pool taken, as ten slow statements would.
        for (let i = 0; i < 10; i++) held.push(await store.pgPool!.connect());
        const waiting = await settlesWithin(store.arrays(sql`select 1 as "one"`), 60_000);
        expect(waiting.status).toBe('rejected');
        expect(String((waiting as PromiseRejectedResult).reason)).toMatch(/timeout/i);
        for (const client of held.splice(0)) client.release();
        expect(await store.arrays(sql`select 1 as "one"`)).toEqual([[1]]);
      } finally {
        for (const client of held) client.release();
        await store.close();
      }
    },
  );
});

describe('a PostgreSQL store with a statement deadline (DATABASE_STATEMENT_TIMEOUT_MS)', () => {
  itOnPostgres(
    'ends every kind of read that waits for a lock another session holds, then reads again once it is let go',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.query(`create table ${schema}.held (a text)`);
      await admin.query(`insert into ${schema}.held values ('a')`);
      const store = openStore(POSTGRES_URL, { pgSchema: schema, statementTimeoutMs: WAIT_MS });
      const plain = openStore(POSTGRES_URL, { pgSchema: schema });
      try {
        // Both pools' sessions carry it; a store opened without it (the other commands') has none.
        const setting = sql<{ timeout: string }>`select current_setting('statement_timeout') as "timeout"`;
        expect(await store.arrays(setting)).toEqual([[`${WAIT_MS}ms`]]);
        expect(await store.arrays(reusable(setting))).toEqual([[`${WAIT_MS}ms`]]);
        expect(await plain.arrays(setting)).toEqual([['0']]);
        // One given in the URL wins over the setting.
        const chosen = openStore(postgresUrlWith({ statement_timeout: '1234' }), {
          statementTimeoutMs: WAIT_MS,
        });
        try {
          expect(await chosen.arrays(setting)).toEqual([['1234ms']]);
        } finally {
          await chosen.close();
        }

        // Another session (an operator's, a stuck transaction) holds the table.
        await admin.query('begin');
        await admin.query(`lock table ${schema}.held in access exclusive mode`);
        const kinds: Array<[string, () => Promise<unknown>]> = [
          ['Kysely', () => sql`select a from held`.execute(store.db)],
          ['arrays', () => store.arrays(sql`select a from held`)],
          ['arrays (prepared)', () => store.arrays(reusable(sql`select a from held`))],
          ['bytes (COPY)', () => store.bytes(sql`select a as "a" from held`, (table) => table.rows)],
          [
            'bytes (prepared)',
            () => store.bytes(reusable(sql`select a as "a" from held`), (table) => table.rows),
          ],
        ];
        const reads = await Promise.all(
          kinds.map(async ([kind, read]) => {
            const settled = await settlesWithin<unknown>(read(), 60_000);
            const reason =
              settled.status === 'rejected' ? (settled.reason as { code?: string; message?: string }) : {};
            return { kind, status: settled.status, code: reason.code, message: reason.message };
          }),
        );
        for (const read of reads) {
          expect(read).toEqual({
            kind: read.kind,
            status: 'rejected',
            code: '57014',
            message: 'canceling statement due to statement timeout',
          });
        }
        await admin.query('rollback');
        for (const [, read] of kinds) await expect(read()).resolves.toBeDefined();
        expect(await store.arrays(sql`select a from held`)).toEqual([['a']]);
      } finally {
        await admin.query('rollback').catch(() => undefined);
        await store.close();
        await plain.close();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  );
});
