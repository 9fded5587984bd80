import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runCli } from '../../src/cli/cli';
import { INTERNAL_ERROR_MESSAGE } from '../../src/edge/error-table';
import { POSTGRES_URL, postgresUrlWith } from '../support/dialects';
import { itOnPostgres } from '../support/harness';
import { tempDir, testIo } from './cli-support';

/**
 * DATABASE_STATEMENT_TIMEOUT_MS on a real `start` (migrations and the demo data first, without it;
 * then serving, with it): a request whose statement waits on a lock another session holds is
 * answered in the envelope once the deadline passes, while other requests are answered as usual.
 */
describe('facility-ops start on PostgreSQL with a statement deadline', () => {
  const schema = `t_deadline_${randomBytes(5).toString('hex')}`;
  const databaseUrl = postgresUrlWith({ options: `-c search_path=${schema}` });
  let admin: Client | null = null;

  afterAll(async () => {
    if (admin === null) return;
    await admin.query('rollback').catch(() => undefined);
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
  });

  itOnPostgres(
    'answers a request held by another session’s lock with the internal error, others as usual, and the same request once the lock is let go',
    async () => {
      admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      // `start` on PostgreSQL writes first-requests.md in the working directory.
      const temp = tempDir();
      const cwd = process.cwd();
      process.chdir(temp.dir);
      const t = testIo({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'error',
      });
      const logged: string[] = [];
      t.io.logStream = { write: (line: string) => void logged.push(line) };
      const running = runCli(['start'], t.io);
      try {
        await t.line(/^Stop it with Ctrl-C\.$/);
        const out = t.out.join('\n');
        const token = /^ {2}bearer token {5}(\S+)$/m.exec(out)![1];
        const [flippersUrl, updatesUrl] = out
          .split('\n')
          .filter((line) => line.startsWith('  curl '))
          .map((line) => /'?(http[^' ]+)'?$/.exec(line)![1]);
        const get = async (url: string) => {
          const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        };

        // An operator's session holds the rate changes, as a stuck transaction would.
        await admin.query('begin');
        await admin.query(`lock table ${schema}.rate_changes in access exclusive mode`);
        const held = get(updatesUrl);
        const flippers = await get(flippersUrl);
        expect(flippers.status).toBe(200);
        const answered = await held;
        expect(answered).toEqual({
          status: 500,
          body: {
            meta: expect.objectContaining({ error_code: 1, message: INTERNAL_ERROR_MESSAGE, errors: [] }),
          },
        });
        // The cause goes to the log only.
        expect(logged.join('')).toContain('canceling statement due to statement timeout');
        // The lock is still held: the deadline ended the wait, not the lock.
        const locks = await admin.query(
          `select count(*)::int as n from pg_locks where relation = '${schema}.rate_changes'::regclass and mode = 'AccessExclusiveLock' and granted`,
        );
        expect(locks.rows).toEqual([{ n: 1 }]);

        await admin.query('rollback');
        const again = await get(updatesUrl);
        expect(again.status).toBe(200);
        expect((again.body.meta as { pagination: { total_entries: number } }).pagination.total_entries).toBe(
          10_000,
        );
      } finally {
        t.stop('SIGTERM');
        expect(await running).toBe(0);
        process.chdir(cwd);
        temp.remove();
      }
    },
    120_000,
  );
});
