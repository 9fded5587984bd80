import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { buildApp, type App } from '../../src/app';
import { runCli } from '../../src/cli/cli';
import { loadConfig } from '../../src/config';
import { openStore, type Store } from '../../src/store/database';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { migrateToLatest } from '../../src/store/migrator';
import { POSTGRES_URL } from '../support/dialects';
import { buildWorld, worldDataset, type World } from '../support/factories';
import { activeDialects, type Dialect } from '../support/harness';
import { oauthHeader } from '../support/http';
import { tempDir, testIo } from './cli-support';

interface Database {
  store: Store;
  /** The same database as the command line reaches it. */
  url: string;
  close(): Promise<void>;
}

/** A database file (SQLite) or schema (PostgreSQL) of its own, migrated, holding the basic world. */
async function openDatabase(dialect: Dialect, world: World): Promise<Database> {
  let database: Database;
  if (dialect === 'sqlite') {
    const scratch = tempDir();
    const url = `sqlite:${path.join(scratch.dir, 'ops.db')}`;
    const store = openStore(url);
    database = {
      store,
      url,
      close: async () => {
        await store.close();
        scratch.remove();
      },
    };
  } else {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const store = openStore(POSTGRES_URL, { pgSchema: schema });
    database = {
      store,
      url: `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      close: async () => {
        await store.close();
        const cleanup = new Client({ connectionString: POSTGRES_URL });
        await cleanup.connect();
        await cleanup.query(`drop schema ${schema} cascade`);
        await cleanup.end();
      },
    };
  }
  await migrateToLatest(database.store.db);
  await importDataset(database.store, DATASET_PLANS, worldDataset(world));
  return database;
}

/** Resolves once `test` holds, checking every 50 ms; rejects after `ms`. */
async function until(test: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Credentials {
  consumer_key: string;
  consumer_secret: string;
  bearer_token: string;
}

for (const dialect of activeDialects()) {
  describe(`facility-ops clients list|revoke|rotate [${dialect}]`, () => {
    const world = buildWorld();
    const flippers = `/v1/${world.facility.id}/flippers`;
    let database: Database;
    let instances: App[];

    beforeAll(async () => {
      database = await openDatabase(dialect, world);
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
      // Two instances over one database, each with the callers it keeps in memory.
      instances = [
        await buildApp({ config, store: database.store }),
        await buildApp({ config, store: database.store }),
      ];
      for (const { app } of instances) await app.ready();
    });
    afterAll(async () => {
      for (const { app } of instances ?? []) await app.close();
      await database?.close();
    });

    /** One command against the database, "now" the real instant (the instances' clock). */
    async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
      const t = testIo({ DATABASE_URL: database.url });
      t.io.now = () => new Date();
      const code = await runCli(argv, t.io);
      return { code, out: t.out.join('\n'), err: t.err.join('\n') };
    }

    /** The status each instance answers to a bearer request (over one kept-alive connection each). */
    async function bearerStatuses(token: string, url = flippers): Promise<number[]> {
      return Promise.all(
        instances.map(
          async ({ app }) =>
            (
              await app.inject({
                method: 'GET',
                url,
                headers: { authorization: `Bearer ${token}` },
              })
            ).statusCode,
        ),
      );
    }

    async function oauthStatuses(
      credentials: Pick<Credentials, 'consumer_key' | 'consumer_secret'>,
      url = flippers,
    ) {
      return Promise.all(
        instances.map(
          async ({ app }) =>
            (
              await app.inject({
                method: 'GET',
                url,
                headers: { authorization: oauthHeader(credentials, { method: 'GET', url }) },
              })
            ).statusCode,
        ),
      );
    }

    async function listed(): Promise<Array<Record<string, unknown>>> {
      const result = await run(['clients', 'list', '--json']);
      expect(result.code).toBe(0);
      return JSON.parse(result.out) as Array<Record<string, unknown>>;
    }

    it('lists clients with their kind and last use, never a secret', async () => {
      const made = await run([
        'clients',
        'create',
        '--company',
        world.company.id,
        '--name',
        'Desk',
        '--json',
      ]);
      expect(made.code).toBe(0);
      const desk = JSON.parse(made.out) as Credentials & { id: string };
      expect(await bearerStatuses(desk.bearer_token)).toEqual([200, 200]);
      expect(await oauthStatuses(world.client)).toEqual([200, 200]);

      await until(async () =>
        (await listed()).every((c) => c.id === world.otherClient.id || c.last_used_at !== null),
      );
      const clients = await listed();
      expect(clients.map((c) => [c.name, c.company_name, c.kind, c.revoked_at])).toEqual(
        expect.arrayContaining([
          [world.client.name, world.company.name, 'imported', null],
          [world.otherClient.name, world.otherCompany.name, 'imported', null],
          ['Desk', world.company.name, 'created', null],
        ]),
      );
      expect(clients.find((c) => c.id === world.otherClient.id)!.last_used_at).toBeNull();
      const text = await run(['clients', 'list', '--company', world.company.id]);
      expect(text.code).toBe(0);
      const lines = text.out.split('\n');
      expect(lines[0]).toMatch(/^ID +NAME +COMPANY +KIND +CREATED +LAST USED +STATE$/);
      expect(lines).toHaveLength(3);
      expect(text.out).toMatch(
        new RegExp(`^${desk.id} +Desk +${world.company.name} +created +\\S+ \\S+ +\\S+ \\S+ +active$`, 'm'),
      );
      expect(text.out).not.toContain(desk.consumer_secret);
      expect(text.out).not.toContain(world.otherClient.name);
    });

    it('rotates: new credentials at once, the old ones through the grace period, none after --grace-hours 0', async () => {
      const old = world.client;
      expect(await bearerStatuses(old.bearer_token!)).toEqual([200, 200]);
      const rotated = await run(['clients', 'rotate', old.id, '--json']);
      expect(rotated.code).toBe(0);
      const first = JSON.parse(rotated.out) as Credentials & { previous_valid_until: string };
      expect(first.consumer_key).toBe(old.consumer_key);
      expect(first.consumer_secret).not.toBe(old.consumer_secret);
      expect(Date.parse(first.previous_valid_until) - Date.now()).toBeGreaterThan(23 * 3_600_000);

      // Old and new both hold on both instances, by bearer token and by OAuth signature.
      expect(await bearerStatuses(first.bearer_token)).toEqual([200, 200]);
      expect(await bearerStatuses(old.bearer_token!)).toEqual([200, 200]);
      expect(await oauthStatuses(first)).toEqual([200, 200]);
      expect(await oauthStatuses(old)).toEqual([200, 200]);
      expect((await listed()).find((c) => c.id === old.id)!.previous_valid_until).toBe(
        first.previous_valid_until,
      );

      const text = await run(['clients', 'rotate', old.id, '--grace-hours', '0']);
      expect(text.code).toBe(0);
      expect(text.out).toContain('The previous secret and bearer tokens are refused from now on.');
      const token = /^ {2}bearer token {5}(\S+)$/m.exec(text.out)![1];
      const secret = /^ {2}consumer secret {2}(\S+)$/m.exec(text.out)![1];
      // At once, on both instances: no kept caller outlives the rotation.
      expect(await bearerStatuses(old.bearer_token!)).toEqual([401, 401]);
      expect(await bearerStatuses(first.bearer_token)).toEqual([401, 401]);
      expect(await oauthStatuses(first)).toEqual([401, 401]);
      expect(await bearerStatuses(token)).toEqual([200, 200]);
      expect(await oauthStatuses({ consumer_key: old.consumer_key, consumer_secret: secret })).toEqual([
        200, 200,
      ]);
    });

    it('revokes on every instance at once, even a caller each instance had just verified', async () => {
      const other = world.otherClient;
      const elsewhere = `/v1/${world.otherFacility.id}/flippers`;
      // Each instance now keeps this caller (and this connection's header) in memory.
      expect(await bearerStatuses(other.bearer_token!, elsewhere)).toEqual([200, 200]);
      expect(await bearerStatuses(other.bearer_token!, elsewhere)).toEqual([200, 200]);
      expect(await oauthStatuses(other, elsewhere)).toEqual([200, 200]);

      const revoked = await run(['clients', 'revoke', other.id]);
      expect(revoked).toEqual({
        code: 0,
        out: `revoked client application "${other.name}" (${other.id}) of ${world.otherCompany.name}: its bearer tokens and OAuth signatures are refused from now on, on every instance`,
        err: '',
      });
      expect(await bearerStatuses(other.bearer_token!, elsewhere)).toEqual([401, 401]);
      expect(await oauthStatuses(other, elsewhere)).toEqual([401, 401]);
      const entry = (await listed()).find((c) => c.id === other.id)!;
      expect(entry.revoked_at).toEqual(expect.any(String));
    });

    it('refuses an unknown client, a second revocation and rotating a revoked client: one line, exit 1, nothing changed', async () => {
      const before = await listed();
      const unknown = 'c0c0c0c0-0000-4000-8000-000000000000';
      const other = world.otherClient.id;
      const cases: Array<[string[], string]> = [
        [
          ['clients', 'revoke', unknown],
          `facility-ops: no client application ${unknown}: nothing was revoked (clients list shows them)`,
        ],
        [
          ['clients', 'rotate', unknown],
          `facility-ops: no client application ${unknown}: nothing was rotated (clients list shows them)`,
        ],
      ];
      for (const [argv, line] of cases) expect(await run(argv)).toEqual({ code: 1, out: '', err: line });
      const again = await run(['clients', 'revoke', other]);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(
        new RegExp(
          `^facility-ops: client application ${other} was already revoked at \\S+: nothing changed$`,
        ),
      );
      const rotate = await run(['clients', 'rotate', other]);
      expect(rotate.code).toBe(1);
      expect(rotate.out).toBe('');
      expect(rotate.err).toMatch(
        new RegExp(
          `^facility-ops: client application ${other} was revoked at \\S+: a revoked client cannot be rotated; make a new one with clients create$`,
        ),
      );
      const bad = await run(['clients', 'revoke', 'desk']);
      expect(bad.code).toBe(2);
      expect(bad.err.split('\n')[0]).toBe(
        'facility-ops: a client id is a UUID (clients list shows them), got "desk"',
      );
      expect(await listed()).toEqual(before);
      expect(
        await bearerStatuses(world.otherClient.bearer_token!, `/v1/${world.otherFacility.id}/flippers`),
      ).toEqual([401, 401]);
    });
  });
}
