import { randomBytes } from 'node:crypto';
import { INTERNAL_ERROR_MESSAGE } from '../../src/edge/error-table';
import { postgresUrlWith } from '../support/dialects';
import { itOnPostgres } from '../support/harness';
import { waitFor } from '../support/wait';
import { startInSchema } from './cli-support';

/** Generous bound on anything the test waits for: a busy machine is slow, never this slow. */
const DEADLINE_MS = 60_000;

/**
 * A real `start` on PostgreSQL whose sessions the server ends again and again while requests and
 * writes (each note a transaction) keep coming, as a restart or a failover of the database does:
 * the process goes on, every request is answered (200, or the contract's internal error for one
 * caught mid-way), and once the ending stops every request is answered as usual.
 */
describe('facility-ops start on PostgreSQL whose sessions the server ends under load', () => {
  const suffix = randomBytes(5).toString('hex');
  const schema = `t_ended_${suffix}`;
  // Its sessions are told apart from every other run's by their application_name.
  const applicationName = `facility-ops ended ${suffix}`;
  const databaseUrl = postgresUrlWith({
    options: `-c search_path=${schema}`,
    application_name: applicationName,
  });

  itOnPostgres(
    'goes on answering every request, and answers as usual once the sessions are left alone',
    async () => {
      const started = await startInSchema(schema, {
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'error',
        RATE_LIMIT_PER_MINUTE: '0',
      });
      const { admin, out, token } = started;
      let exited = false;
      void started.running.then(() => (exited = true));
      let loading = true;
      try {
        const flippersUrl = /curl .*?(http\S+\/flippers)$/m.exec(out)![1];
        const facilityId = new URL(flippersUrl).pathname.split('/')[2];
        const tenants = await admin.query<{ id: string }>(
          `select id from ${schema}.tenants where facility_id = $1 order by id limit 1`,
          [facilityId],
        );
        const notesUrl = flippersUrl.replace(/flippers$/, 'notes');
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const answers = new Map<string, number>();
        const count = (what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);
        const ask = async (method: 'GET' | 'POST') => {
          const response =
            method === 'GET'
              ? await fetch(flippersUrl, { headers })
              : await fetch(notesUrl, {
                  method,
                  headers,
                  body: JSON.stringify({ note: { note_text: 'while ended', tenant_id: tenants.rows[0].id } }),
                });
          const body = (await response.json()) as { meta?: { error_code?: number; message?: string } };
          if (response.status === 200) return count(`${method} 200`);
          // Anything else must be the internal error in the envelope, its cause in the log only.
          count(`${method} ${response.status} ${body.meta?.error_code} ${body.meta?.message}`);
        };
        const loops = Array.from({ length: 6 }, async (_, index) => {
          while (loading) await ask(index % 2 === 0 ? 'POST' : 'GET');
        });

        const answered = (what: string) => answers.get(what) ?? 0;
        for (let round = 0; round < 8; round++) {
          // Each round waits for a read and a write answered as usual since the last, then ends
          // every session the service holds.
          const reads = answered('GET 200');
          const writes = answered('POST 200');
          await waitFor(
            () => answered('GET 200') > reads && answered('POST 200') > writes,
            `a read and a write answered in round ${round}`,
            DEADLINE_MS,
          );
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
            [applicationName],
          );
        }
        loading = false;
        await Promise.all(loops);

        expect(exited).toBe(false);
        const internal = `${500} 1 ${INTERNAL_ERROR_MESSAGE}`;
        for (const [what] of answers)
          expect([`GET 200`, `POST 200`, `GET ${internal}`, `POST ${internal}`]).toContain(what);

        // Left alone, every request is answered as usual: reads, and a write read back.
        const read = await fetch(flippersUrl, { headers });
        expect(read.status).toBe(200);
        const written = await fetch(notesUrl, {
          method: 'POST',
          headers,
          body: JSON.stringify({ note: { note_text: 'after', tenant_id: tenants.rows[0].id } }),
        });
        expect(written.status).toBe(200);
        const stored = await admin.query(
          `select count(*)::int as n from ${schema}.notes where note = 'after'`,
        );
        expect(stored.rows).toEqual([{ n: 1 }]);
      } finally {
        loading = false;
        expect(await started.end()).toBe(0);
      }
    },
    240_000,
  );
});
