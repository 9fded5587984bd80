import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { runCli } from '../../src/cli/cli';
import { INTERNAL_ERROR_MESSAGE } from '../../src/edge/error-table';
import { withDeadline } from '../../src/kernel/deadline';
import { sqliteLockHolder } from '../support/sqlite-lock-holder';
import { tempDir, testIo } from './cli-support';

/** Generous bound on anything the test waits for: a busy machine is slow, never this slow. */
const DEADLINE_MS = 60_000;

/**
 * A real `start` on its SQLite file while another process holds the file's write lock (as an
 * `import` beside the service does for its whole transaction): a write waits for the lock, and
 * every other request is answered meanwhile; once the lock is let go the write is stored. A lock
 * that outlasts SQLITE_LOCK_WAIT_MS gets the contract's internal error, and nothing is written.
 */
describe('facility-ops start on SQLite while another process holds the write lock', () => {
  let dir: string;
  let remove: () => void;
  beforeAll(() => ({ dir, remove } = tempDir()));
  afterAll(() => remove());

  /** `start` on a file of its own with SQLITE_LOCK_WAIT_MS `lockWaitMs`, and another process to lock it. */
  async function started(name: string, lockWaitMs: string) {
    const file = path.join(dir, `${name}.db`);
    const t = testIo({
      DATABASE_URL: `sqlite:${file}`,
      PORT: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      SQLITE_LOCK_WAIT_MS: lockWaitMs,
    });
    const running = runCli(['start'], t.io);
    const holder = sqliteLockHolder(file);
    const end = async () => {
      await holder.end();
      t.stop('SIGTERM');
      expect(await running).toBe(0);
    };
    try {
      await withDeadline(t.line(/^Stop it with Ctrl-C\.$/), 120_000, 'start did not serve within 120 s');
    } catch (error) {
      await end();
      throw error;
    }
    const out = t.out.join('\n');
    const token = /^ {2}bearer token {5}(\S+)$/m.exec(out)![1];
    const flippersUrl = /curl .*?(http\S+\/flippers)$/m.exec(out)![1];
    const facilityUrl = flippersUrl.slice(0, -'/flippers'.length);
    const facilityId = facilityUrl.slice(facilityUrl.lastIndexOf('/') + 1);
    const reader = new SqliteDatabase(file, { readonly: true });
    const tenantId = reader
      .prepare<[string], string>('select id from tenants where facility_id = ? order by id limit 1')
      .pluck()
      .get(facilityId)!;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    return {
      holder,
      flippersUrl,
      facilityUrl,
      headers,
      /** POSTs a note of `text` about the demo tenant. */
      note: (text: string) =>
        fetch(`${facilityUrl}/notes`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ user_id: 'lock-test', note: { note_text: text, tenant_id: tenantId } }),
        }),
      /** How many notes of `text` the file holds. */
      stored: (text: string) =>
        reader.prepare<[string], number>('select count(*) from notes where note = ?').pluck().get(text)!,
      end: async () => {
        reader.close();
        await end();
      },
    };
  }

  it('answers reads while a write waits for the lock, then stores the write', async () => {
    // Longer than the test could take: the write must wait, not fail.
    const service = await started('waits', '600000');
    const { holder, flippersUrl, facilityUrl, headers, note, stored } = service;
    try {
      const text = `written while locked ${randomBytes(6).toString('hex')}`;
      await holder.lock();
      let settled = false;
      const write = note(text).finally(() => (settled = true));

      // While the write waits for the other process, reads keep being answered.
      for (let i = 0; i < 5; i++) {
        const read = await withDeadline(
          fetch(flippersUrl, { headers }),
          DEADLINE_MS,
          'a read was not answered while a write waited for the lock',
        );
        expect(read.status).toBe(200);
        await read.arrayBuffer();
      }
      const health = await fetch(new URL('/readyz', facilityUrl));
      expect(health.status).toBe(200);
      expect(settled).toBe(false);
      expect(stored(text)).toBe(0);

      await holder.release();
      const answer = await withDeadline(write, DEADLINE_MS, 'the write was not answered after the lock went');
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { note_event: { notes: { note: string }[] } };
      expect(body.note_event.notes.map((note) => note.note)).toEqual([text]);
      expect(stored(text)).toBe(1);
    } finally {
      await service.end();
    }
  });

  it('answers the internal error, writing nothing, when the lock outlasts the wait', async () => {
    const service = await started('outlasts', '100');
    const { holder, flippersUrl, headers, note, stored } = service;
    try {
      const text = `never written ${randomBytes(6).toString('hex')}`;
      await holder.lock();
      const refused = await withDeadline(note(text), DEADLINE_MS, 'the write was not answered');
      expect(refused.status).toBe(500);
      const body = (await refused.json()) as { meta: { error_code: number; message: string } };
      expect(body.meta).toMatchObject({ error_code: 1, message: INTERNAL_ERROR_MESSAGE });
      expect(stored(text)).toBe(0);
      expect((await fetch(flippersUrl, { headers })).status).toBe(200);

      // The same write once the lock goes is stored, once.
      await holder.release();
      expect((await note(text)).status).toBe(200);
      expect(stored(text)).toBe(1);
    } finally {
      await service.end();
    }
  });
});
