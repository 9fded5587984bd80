import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { buildApp, type App } from '../../../src/app';
import { loadConfig } from '../../../src/config';
import { startOutboxWorker, type RunningOutboxWorker } from '../../../src/outbox.runtime';
import { importDataset } from '../../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../../src/modules';
import { openStore, type Store } from '../../../src/store/database';
import { migrateToLatest } from '../../../src/store/migrator';
import { tempDir } from '../../cli/cli-support';
import { buildUnit, buildWorld, worldDataset, type World } from '../../support/factories';
import { POSTGRES_URL } from '../../support/dialects';
import { itOnPostgres } from '../../support/harness';
import { startReceiver, verifyDelivery, type TestReceiver } from '../../support/webhook-receiver';

const ROOT = path.resolve(__dirname, '../../..');

/** Polls until `done` holds; the test's own timeout bounds it (no fixed sleeps). */
async function eventually(done: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A world with a unit to write notes on, loaded into the store. */
async function loadWorld(store: Store): Promise<{ world: World; unitId: string }> {
  const world = buildWorld();
  const unit = buildUnit({ facility_id: world.facility.id });
  await importDataset(store, DATASET_PLANS, { ...worldDataset(world), units: [unit] });
  return { world, unitId: unit.id };
}

/** The service as its own process (`facility-ops serve` from the TypeScript sources), until killed. */
interface ServiceProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
}

async function startService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    ['-r', path.join(ROOT, 'scripts', 'swc-register.js'), '-e', "require('./src/main.ts').main(['serve'])"],
    { cwd: ROOT, env: { ...process.env, ...env } },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /facility-ops listening on (\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`the service exited before listening:\n${output}`)));
  });
  return { url, child, exited };
}

describe('webhook delivery across processes', () => {
  const closers: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  it('delivers at least once, with the same webhook-id, when the process is killed (-9) during a delivery', async () => {
    const scratch = tempDir();
    closers.push(() => scratch.remove());
    const databaseUrl = `sqlite:${path.join(scratch.dir, 'ops.db')}`;
    const store = openStore(databaseUrl);
    await migrateToLatest(store.db);
    const { world, unitId } = await loadWorld(store);
    const config = loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    const { app: setup, services } = await buildApp({ config, store });

    // The first delivery is held by the receiver until its sender is gone; later ones are answered.
    const hooks = await startReceiver((n) => (n === 0 ? 'hold' : { status: 204 }));
    closers.push(() => hooks.close());
    const { secret } = await services.webhooks.createEndpoint(world.company.id, {
      url: hooks.url,
      eventTypes: ['note.created'],
    });
    await setup.close();
    await store.close();

    // A claim outlasts a delivery's timeout; once a killed worker's claim runs out, another takes it.
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: '2000',
      OUTBOX_SEND_TIMEOUT_MS: '1000',
      OUTBOX_LEASE_MS: '4100',
      OUTBOX_POLL_MS: '100',
    };
    const first = await startService(env);
    closers.push(() => first.child.kill('SIGKILL'));
    const note = await fetch(`${first.url}/v1/${world.facility.id}/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.client.bearer_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: { note_text: 'Delivered despite a crash', unit_id: unitId } }),
    });
    expect(note.status).toBe(200);
    await hooks.waitFor(1);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    const second = await startService(env);
    closers.push(async () => {
      second.child.kill('SIGTERM');
      await second.exited;
    });
    await hooks.waitFor(2);
    const [held, again] = hooks.received;
    expect(again.id).toBe(held.id);
    expect(again.body).toBe(held.body);
    for (const delivery of [held, again]) {
      expect(verifyDelivery(secret, delivery)).toMatchObject({
        type: 'note.created',
        data: { notes: [expect.objectContaining({ note: 'Delivered despite a crash' })] },
      });
    }

    // The second process recorded it: nothing is left to send.
    const check = openStore(databaseUrl);
    closers.push(() => check.close());
    await eventually(async () => {
      const row = await check.db
        .selectFrom('outbox_messages')
        .selectAll()
        .where('id', '=', held.id)
        .executeTakeFirst();
      return row?.status === 'sent';
    });
    const row = await check.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ channel: 'webhook', status: 'sent', response_code: 204 });
    expect(row.attempts).toBeGreaterThanOrEqual(2);
  }, 120_000);

  itOnPostgres(
    'two instances on one PostgreSQL deliver each message once',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      closers.push(async () => {
        const cleanup = new Client({ connectionString: POSTGRES_URL });
        await cleanup.connect();
        await cleanup.query(`drop schema ${schema} cascade`);
        await cleanup.end();
      });
      const stores = [
        openStore(POSTGRES_URL, { pgSchema: schema }),
        openStore(POSTGRES_URL, { pgSchema: schema }),
      ];
      await migrateToLatest(stores[0].db, { schema });
      const { world, unitId } = await loadWorld(stores[0]);
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
      const instances: App[] = [];
      const workers: RunningOutboxWorker[] = [];
      for (const store of stores) {
        const instance = await buildApp({ config, store });
        instances.push(instance);
        workers.push(startOutboxWorker(instance.services, config)!);
      }
      closers.push(async () => {
        for (const worker of workers) await worker.stop();
        for (const { app } of instances) await app.close();
        for (const store of stores) await store.close();
      });

      const hooks: TestReceiver = await startReceiver(() => ({ status: 200 }));
      closers.push(() => hooks.close());
      const { secret } = await instances[0].services.webhooks.createEndpoint(world.company.id, {
        url: hooks.url,
        eventTypes: ['note.created'],
      });
      const count = 40;
      // Requests alternate between the instances; each wakes its own worker.
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const res = await instances[i % 2].app.inject({
            method: 'POST',
            url: `/v1/${world.facility.id}/notes`,
            headers: {
              authorization: `Bearer ${world.client.bearer_token}`,
              'content-type': 'application/json',
            },
            payload: JSON.stringify({ note: { note_text: `Note ${i}`, unit_id: unitId } }),
          });
          expect(res.statusCode).toBe(200);
        }),
      );
      await hooks.waitFor(count);
      await eventually(async () => {
        const rows = await stores[1].db.selectFrom('outbox_messages').select('status').execute();
        return rows.length === count && rows.every((r) => r.status === 'sent');
      });
      const ids = hooks.received.map((d) => d.id);
      expect(new Set(ids).size).toBe(count);
      expect(ids).toHaveLength(count);
      for (const delivery of hooks.received) verifyDelivery(secret, delivery);
      const rows = await stores[0].db.selectFrom('outbox_messages').select(['attempts', 'status']).execute();
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    },
    120_000,
  );
});
