import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app';
import { listen } from '../../src/cli/serve.command';
import { loadConfig } from '../../src/config';
import { openStore } from '../../src/store/database';
import { migrateToLatest } from '../../src/store/migrator';
import { sendOkSerialized } from '../../src/rest/envelope';
import { tempDir } from './cli-support';

/** Polls until the check holds; the test's own timeout bounds it. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('graceful shutdown', () => {
  it('stops accepting, lets the request in flight finish with the database, then closes the database', async () => {
    const { dir, remove } = tempDir();
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        DATABASE_URL: `sqlite:${path.join(dir, 'ops.db')}`,
      });
      const store = openStore(config.databaseUrl);
      await migrateToLatest(store.db);
      const { app, services } = await buildApp({ config, store });

      let entered: () => void = () => undefined;
      const inHandler = new Promise<void>((resolve) => (entered = resolve));
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      app.get('/slow', async () => {
        entered();
        await released;
        const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(store.db);
        return { answer: rows[0].answer };
      });
      // An answer written from its parts (sendOkSerialized), as the kept pages are.
      let partsEntered: () => void = () => undefined;
      const inPartsHandler = new Promise<void>((resolve) => (partsEntered = resolve));
      app.get('/slow-parts', async (request, reply) => {
        partsEntered();
        await released;
        return sendOkSerialized(request, reply, [Buffer.from('"answer":'), Buffer.from('43')]);
      });

      const server = await listen(app, services, config, store);
      const inFlight = fetch(`${server.url}/slow`);
      const partsInFlight = fetch(`${server.url}/slow-parts`);
      await inHandler;
      await inPartsHandler;
      const stopping = server.shutdown();

      // New connections are refused while the request in flight is still running.
      await eventually(() =>
        fetch(`${server.url}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ answer: 42 });
      // Both answers finished while stopping close their connection.
      expect(response.headers.get('connection')).toBe('close');
      const parts = await partsInFlight;
      expect(parts.headers.get('connection')).toBe('close');
      expect(((await parts.json()) as { answer: number }).answer).toBe(43);

      await stopping;
      await expect(sql`select 1`.execute(store.db)).rejects.toThrow();
      // A second call waits for the same shutdown instead of closing twice.
      await expect(server.shutdown()).resolves.toBeUndefined();
    } finally {
      remove();
    }
  });
});
