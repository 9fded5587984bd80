import { randomBytes } from 'node:crypto';
import { INTERNAL_ERROR_MESSAGE } from '../../src/edge/error-table';
import { postgresUrlWith } from '../support/dialects';
import { itOnPostgres } from '../support/harness';
import { startInSchema } from './cli-support';

/**
 * DATABASE_STATEMENT_TIMEOUT_MS on a real `start` (migrations and the demo data first, without it;
 * then serving, with it): a request whose statement waits on a lock another session holds is
 * answered in the envelope once the deadline passes, while other requests are answered as usual.
 */
describe('facility-ops start on PostgreSQL with a statement deadline', () => {
  const schema = `t_deadline_${randomBytes(5).toString('hex')}`;
  const databaseUrl = postgresUrlWith({ options: `-c search_path=${schema}` });

  itOnPostgres(
    'answers a request held by another session’s lock with the internal error, others as usual, and the same request once the lock is let go',
    async () => {
      const logged: string[] = [];
      const started = await startInSchema(
        schema,
        { DATABASE_URL: databaseUrl, DATABASE_STATEMENT_TIMEOUT_MS: '1000', LOG_LEVEL: 'error' },
        (line) => void logged.push(line),
      );
      const { admin, out, token } = started;
      try {
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
        expect(await started.end()).toBe(0);
      }
    },
    120_000,
  );
});
