import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { AesGcmSecretBox, keyIdOf, SecretKeys } from '../../src/adapters/secrets/aes-gcm.secret-box';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { FixedClock } from '../../src/kernel/clock';
import { createOutboxWorker } from '../../src/outbox.runtime';
import { DatasetError, importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import type { DatasetClientApplication } from '../../src/store/dataset/dataset.types';
import { openStore, type Store } from '../../src/store/database';
import { migrateToLatest } from '../../src/store/migrator';
import { resealSecrets, secretsByKey } from '../../src/store/secret-columns';
import { POSTGRES_URL } from '../support/dialects';
import { buildClient, buildTenant, buildWorld, worldDataset, type World } from '../support/factories';
import { createTestStore, describeEachDialect, type Dialect } from '../support/harness';
import { oauthHeader } from '../support/http';
import { startReceiver, verifyDelivery, type TestReceiver } from '../support/webhook-receiver';

const K1 = randomBytes(32);
const K2 = randomBytes(32);
const b64 = (key: Buffer) => key.toString('base64');
const boxOf = (...keys: Buffer[]) => new AesGcmSecretBox(new SecretKeys(keys));

/** A database whose every byte a test can read: a SQLite file (and its WAL), or a PostgreSQL schema. */
interface DumpableStore {
  store: Store;
  /** Everything the database holds, as one text. */
  dump(): Promise<string>;
  /** How it was dumped, for the test's name. */
  dumpedWith: string;
  close(): Promise<void>;
}

const pgDumpOnPath = spawnSync('pg_dump', ['--version']).status === 0;

async function dumpableStore(dialect: Dialect): Promise<DumpableStore> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-at-rest-'));
    const file = path.join(dir, 'ops.db');
    const store = openStore(`sqlite:${file}`);
    await migrateToLatest(store.db);
    const bytes = (name: string) => (fs.existsSync(name) ? fs.readFileSync(name).toString('latin1') : '');
    return {
      store,
      dumpedWith: 'the SQLite file and its WAL',
      dump: async () => bytes(file) + bytes(`${file}-wal`),
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const test = await createTestStore('postgres');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(test.store.db);
  const schema = rows[0].schema;
  return {
    store: test.store,
    dumpedWith: pgDumpOnPath ? 'pg_dump of the schema' : 'every text column of every table',
    dump: async () => (pgDumpOnPath ? pgDump(schema) : selectEveryText(test.store, schema)),
    close: () => test.close(),
  };
}

function pgDump(schema: string): string {
  const result = spawnSync('pg_dump', ['--dbname', POSTGRES_URL, '--schema', schema], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr}`);
  return result.stdout;
}

async function selectEveryText(store: Store, schema: string): Promise<string> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = ${schema} and data_type in ('text', 'character varying', 'jsonb', 'json')`.execute(
    store.db,
  );
  const parts: string[] = [];
  for (const { table_name, column_name } of columns) {
    const { rows } = await sql<{
      v: string | null;
    }>`select ${sql.ref(column_name)}::text as v from ${sql.table(table_name)}`.execute(store.db);
    parts.push(...rows.map((r) => r.v ?? ''));
  }
  return parts.join('\n');
}

/** An instance of the service over the store, with its own settings, caches and log lines. */
async function instance(
  store: Store,
  env: Record<string, string>,
  clock: FixedClock,
): Promise<App & { logs: string[] }> {
  const logs: string[] = [];
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    ...env,
  });
  const built = await buildApp({
    config,
    store,
    clock,
    logStream: { write: (line: string) => logs.push(line) },
  });
  await built.app.ready();
  return { ...built, logs };
}

type Credentials = Pick<DatasetClientApplication, 'consumer_key' | 'consumer_secret'>;

async function signedGet(app: App, client: Credentials, url: string) {
  return app.app.inject({
    method: 'GET',
    url,
    headers: { authorization: oauthHeader(client, { method: 'GET', url }) },
  });
}

const credentials = (made: { consumerKey: string; consumerSecret: string }): Credentials => ({
  consumer_key: made.consumerKey,
  consumer_secret: made.consumerSecret,
});

describeEachDialect('secrets at rest', (dialect: Dialect) => {
  let db: DumpableStore;
  let world: World;
  let receiver: TestReceiver;
  const clock = new FixedClock(new Date());
  const apps: App[] = [];
  const keyed = () => ({ SECRETS_KEY: b64(K1) });
  /** Every secret made in this file, to be looked for in dumps. */
  const secrets: string[] = [];
  /** The webhook secrets made before the key was set (the current one and the one it replaced). */
  const sealedAtFirstStart: string[] = [];
  let flippers: string;
  const tenant = buildTenant({ facility_id: '', first_name: 'Ada', last_name: 'Lovelace' });

  async function start(env: Record<string, string>) {
    const made = await instance(db.store, env, clock);
    apps.push(made);
    return made;
  }

  beforeAll(async () => {
    db = await dumpableStore(dialect);
    world = buildWorld();
    flippers = `/v1/${world.facility.id}/flippers`;
    receiver = await startReceiver(undefined, () => clock.now().getTime());
    // Before the upgrade: secrets kept in clear.
    await importDataset(db.store, DATASET_PLANS, worldDataset(world));
    await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      tenants: [{ ...tenant, facility_id: world.facility.id }],
    });
    secrets.push(world.client.consumer_secret, world.otherClient.consumer_secret);
  });
  afterAll(async () => {
    for (const app of apps) await app.app.close();
    await receiver.close();
    await db.close();
  });

  it('the first start with a key seals what was in clear, once, even with two instances starting together', async () => {
    const clear = await start({});
    const endpoint = await clear.services.webhooks.createEndpoint(world.company.id, {
      url: `${receiver.url}/before`,
      eventTypes: ['note.created'],
    });
    const rotated = await clear.services.webhooks.rotateSecret('operator', endpoint.endpoint.id);
    secrets.push(endpoint.secret, rotated.secret);
    sealedAtFirstStart.push(endpoint.secret, rotated.secret);
    const before = await db.dump();
    // The dump can see a secret: the proof below is not blind.
    expect(secrets.filter((s) => before.includes(s))).toEqual(secrets);

    const [a, b] = await Promise.all([
      resealSecrets(db.store.db, boxOf(K1), 'clear'),
      resealSecrets(db.store.db, boxOf(K1), 'clear'),
    ]);
    const sealed = (c: Record<string, number>) => Object.values(c).reduce((x, y) => x + y, 0);
    // Two clients, an endpoint's secret and the one its rotation replaced: each sealed by one of them.
    expect(sealed(a) + sealed(b)).toBe(4);
    expect(sealed(await resealSecrets(db.store.db, boxOf(K1), 'clear'))).toBe(0);
    expect(await secretsByKey(db.store.db)).toEqual({
      'client_applications.consumer_secret': { [keyIdOf(K1)]: 2 },
      'webhook_endpoints.secret': { [keyIdOf(K1)]: 1 },
      'webhook_endpoints.previous_secret': { [keyIdOf(K1)]: 1 },
    });
    const after = await db.dump();
    expect(secrets.filter((s) => after.includes(s))).toEqual([]);
  });

  it(`leaves no secret in the database (${dialect === 'sqlite' ? 'the SQLite file and its WAL' : pgDumpOnPath ? 'pg_dump' : 'every text column'}); OAuth 1.0 and webhook signatures still verify`, async () => {
    const app = await start(keyed());
    const made = await app.services.auth.createClient(world.company.id, 'Front desk');
    const endpoint = await app.services.webhooks.createEndpoint(world.company.id, {
      url: `${receiver.url}/after`,
      eventTypes: ['note.created'],
    });
    const rotated = await app.services.webhooks.rotateSecret('operator', endpoint.endpoint.id);
    secrets.push(made.consumerSecret, made.bearerToken, endpoint.secret, rotated.secret);
    // The installation's sealing certificate, made now: its private key is sealed too.
    const sealing = await app.services.seal.current();

    const dump = await db.dump();
    expect(dump).toContain(sealing.fingerprint);
    expect(dump).not.toMatch(/PRIVATE KEY/);
    expect(dump.length).toBeGreaterThan(10_000);
    expect(dump).toContain(made.consumerKey);
    expect(secrets.filter((s) => dump.includes(s))).toEqual([]);
    expect(dump).not.toContain(b64(K1));
    expect(dump).toContain(`enc:v1:${keyIdOf(K1)}:`);

    for (const client of [credentials(made), world.client]) {
      expect((await signedGet(app, client, flippers)).statusCode).toBe(200);
    }
    // HMAC-SHA256 and a wrong secret, too.
    const sha256 = await app.app.inject({
      method: 'GET',
      url: flippers,
      headers: {
        authorization: oauthHeader(credentials(made), { method: 'GET', url: flippers }, 'HMAC-SHA256'),
      },
    });
    expect(sha256.statusCode).toBe(200);
    const forged = await signedGet(app, { ...credentials(made), consumer_secret: 'enc:v1:guess' }, flippers);
    expect(forged.statusCode).toBe(401);

    const note = await app.app.inject({
      method: 'POST',
      url: `/v1/${world.facility.id}/notes`,
      headers: { authorization: `Bearer ${made.bearerToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ note: { note_text: 'Gate code changed', tenant_id: tenant.id } }),
    });
    expect(note.statusCode).toBe(200);
    const worker = createOutboxWorker(
      app.services,
      loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', OUTBOX_MAX_ATTEMPTS: '1' }),
      { id: 'secrets' },
    );
    for (let run = 0; run < 20 && (await worker.runOnce()).claimed > 0; run += 1);
    await worker.stop();
    const delivered = (name: string) => receiver.received.filter((d) => d.path.endsWith(`/${name}`));
    expect(delivered('after')).toHaveLength(1);
    // Signed with the new secret and, for a day after the rotation, the one it replaced.
    expect(verifyDelivery(rotated.secret, delivered('after')[0])).toMatchObject({ type: 'note.created' });
    expect(verifyDelivery(endpoint.secret, delivered('after')[0])).toMatchObject({ type: 'note.created' });
    // The endpoint made before the key, whose secrets the first start sealed, too.
    expect(delivered('before')).toHaveLength(1);
    for (const secret of sealedAtFirstStart) {
      expect(verifyDelivery(secret, delivered('before')[0])).toMatchObject({ type: 'note.created' });
    }
  });

  it('import seals the consumer secrets it loads under the key, and refuses a value already encrypted', async () => {
    const app = await start(keyed());
    const imported = buildClient({ company_id: world.company.id, name: 'Imported' });
    await importDataset(
      db.store,
      DATASET_PLANS,
      { version: 1, client_applications: [imported] },
      { secrets: boxOf(K1) },
    );
    secrets.push(imported.consumer_secret);
    const row = await db.store.db
      .selectFrom('client_applications')
      .select('consumer_secret')
      .where('id', '=', imported.id)
      .executeTakeFirstOrThrow();
    expect(row.consumer_secret.startsWith(`enc:v1:${keyIdOf(K1)}:`)).toBe(true);
    expect((await signedGet(app, imported, flippers)).statusCode).toBe(200);

    const copied = buildClient({ company_id: world.company.id, consumer_secret: row.consumer_secret });
    const refused = await importDataset(db.store, DATASET_PLANS, {
      version: 1,
      client_applications: [copied],
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatasetError);
    expect((refused as DatasetError).problems).toEqual([
      'client_applications[0].consumer_secret: an encrypted value (enc:...) is not a secret; give the secret itself',
    ]);
    const written = await db.store.db
      .selectFrom('client_applications')
      .select('id')
      .where('id', '=', copied.id)
      .executeTakeFirst();
    expect(written).toBeUndefined();
  });

  it('a secret copied from another row, or altered, refuses the request in the envelope and logs the row, never the secret', async () => {
    const app = await start(keyed());
    const victim = await app.services.auth.createClient(world.company.id, 'Victim');
    const donor = await app.services.auth.createClient(world.company.id, 'Donor');
    secrets.push(victim.consumerSecret, donor.consumerSecret);
    const stored = (id: string) =>
      db.store.db
        .selectFrom('client_applications')
        .select('consumer_secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const donorValue = (await stored(donor.id)).consumer_secret;
    await db.store.db
      .updateTable('client_applications')
      .set({ consumer_secret: donorValue })
      .where('id', '=', victim.id)
      .execute();

    // Signed with either secret: the copied value opens for neither.
    for (const secret of [victim.consumerSecret, donor.consumerSecret]) {
      const res = await signedGet(
        app,
        { consumer_key: victim.consumerKey, consumer_secret: secret },
        flippers,
      );
      expect(res.statusCode).toBe(401);
      expect(res.json().meta).toMatchObject({
        status_code: 401,
        error_code: 2,
        message: expect.stringContaining("the client's consumer secret cannot be read by the service"),
      });
    }
    const line = app.logs.find((l) => l.includes(`client_applications.consumer_secret of ${victim.id}`));
    expect(JSON.parse(line!)).toMatchObject({
      level: 50,
      table: 'client_applications',
      column: 'consumer_secret',
      rowId: victim.id,
    });
    expect(line).toMatch(/altered, or copied from another row or column/);
    const logs = app.logs.join('\n');
    expect(secrets.filter((s) => logs.includes(s))).toEqual([]);
    expect(logs).not.toContain(b64(K1));
    // The donor is unharmed; the bearer token (whose secret is not read) still works for the victim.
    expect((await signedGet(app, credentials(donor), flippers)).statusCode).toBe(200);
    const bearer = await app.app.inject({
      method: 'GET',
      url: flippers,
      headers: { authorization: `Bearer ${victim.bearerToken}` },
    });
    expect(bearer.statusCode).toBe(200);

    // One flipped byte of the donor's own value.
    const altered = donorValue.slice(0, -6) + (donorValue.at(-6) === 'A' ? 'B' : 'A') + donorValue.slice(-5);
    await db.store.db
      .updateTable('client_applications')
      .set({ consumer_secret: altered })
      .where('id', '=', donor.id)
      .execute();
    const fresh = await start(keyed());
    expect((await signedGet(fresh, credentials(donor), flippers)).statusCode).toBe(401);
    expect(fresh.logs.join('\n')).toContain(`client_applications.consumer_secret of ${donor.id}`);
  });

  it('an instance with another key refuses every sealed secret, and a webhook whose secret cannot be read is not sent', async () => {
    const other = await start({ SECRETS_KEY: b64(randomBytes(32)) });
    const res = await signedGet(other, world.client, flippers);
    expect(res.statusCode).toBe(401);
    expect(other.logs.join('\n')).toContain(`sealed under key ${keyIdOf(K1)}, which is not SECRETS_KEY`);
    // Without any key, a sealed value is not taken for the secret either.
    const none = await start({});
    expect((await signedGet(none, world.client, flippers)).statusCode).toBe(401);
    expect(none.logs.join('\n')).toContain(
      `it is encrypted under key ${keyIdOf(K1)} and no SECRETS_KEY is set`,
    );

    const app = await start(keyed());
    const endpoint = await app.services.webhooks.createEndpoint(world.company.id, {
      url: `${receiver.url}/moved`,
      eventTypes: ['note.created'],
    });
    secrets.push(endpoint.secret);
    const { rows } = await sql<{
      secret: string;
    }>`select secret from webhook_endpoints where id <> ${endpoint.endpoint.id} limit 1`.execute(db.store.db);
    await db.store.db
      .updateTable('webhook_endpoints')
      .set({ secret: rows[0].secret })
      .where('id', '=', endpoint.endpoint.id)
      .execute();
    const note = await app.app.inject({
      method: 'POST',
      url: `/v1/${world.facility.id}/notes`,
      headers: {
        authorization: oauthHeader(world.client, { method: 'POST', url: `/v1/${world.facility.id}/notes` }),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ note: { note_text: 'Moved secret', tenant_id: tenant.id } }),
    });
    expect(note.statusCode).toBe(200);
    const worker = createOutboxWorker(
      app.services,
      loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', OUTBOX_MAX_ATTEMPTS: '1' }),
      { id: 'moved' },
    );
    for (let run = 0; run < 20 && (await worker.runOnce()).claimed > 0; run += 1);
    await worker.stop();
    expect(receiver.received.filter((d) => d.path === '/moved')).toEqual([]);
    const delivery = await db.store.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('recipient', '=', endpoint.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(delivery.last_error).toBe(
      `the endpoint's signing secret cannot be read (webhook_endpoints.secret of ${endpoint.endpoint.id})`,
    );
    // Its company cannot rotate it (that keeps the secret it replaces): refused as the action
    // failing, not a 500. The operator can, which is the way out of a lost key: the old secret,
    // which signs nothing, is not kept. Seeing and disabling it need no secret, and work.
    await expect(
      app.services.webhooks.rotateSecret({ companyId: world.company.id }, endpoint.endpoint.id),
    ).rejects.toMatchObject({ kind: 'action_failed' });
    await expect(app.services.webhooks.rotateSecret('operator', endpoint.endpoint.id)).resolves.toMatchObject(
      {
        endpoint: { previousSecretExpiresAt: null },
      },
    );
    await expect(app.services.webhooks.disable('operator', endpoint.endpoint.id)).resolves.toMatchObject({
      disabledReason: 'manual',
    });
  });

  it('two instances on one database keep answering through a rotation (old and new key both given)', async () => {
    await db.store.db.deleteFrom('client_applications').where('name', 'in', ['Victim', 'Donor']).execute();
    await db.store.db.deleteFrom('webhook_endpoints').where('url', 'like', '%/moved').execute();
    const oldFirst = await start({ SECRETS_KEY: b64(K1), SECRETS_KEY_PREVIOUS: b64(K2) });
    const newFirst = await start({ SECRETS_KEY: b64(K2), SECRETS_KEY_PREVIOUS: b64(K1) });
    const made = await newFirst.services.auth.createClient(world.company.id, 'Made during the change-over');
    const clients = [world.client, world.otherClient, credentials(made)];
    const answers = async () =>
      Promise.all(
        [oldFirst, newFirst].flatMap((app) =>
          clients.map(
            async (c) =>
              (
                await signedGet(
                  app,
                  c,
                  `/v1/${c === world.otherClient ? world.otherFacility.id : world.facility.id}/flippers`,
                )
              ).statusCode,
          ),
        ),
      );
    expect(await answers()).toEqual([200, 200, 200, 200, 200, 200]);
    const [rotation, during] = await Promise.all([
      resealSecrets(db.store.db, boxOf(K2, K1), 'every'),
      answers(),
    ]);
    expect(during).toEqual([200, 200, 200, 200, 200, 200]);
    expect(rotation['client_applications.consumer_secret']).toBeGreaterThanOrEqual(2);
    const byKey = await secretsByKey(db.store.db);
    for (const counts of Object.values(byKey)) expect(Object.keys(counts)).toEqual([keyIdOf(K2)]);
    // The old key can go: an instance with the new key alone opens everything.
    const newOnly = await start({ SECRETS_KEY: b64(K2) });
    for (const c of clients) {
      const facility = c === world.otherClient ? world.otherFacility.id : world.facility.id;
      expect((await signedGet(newOnly, c, `/v1/${facility}/flippers`)).statusCode).toBe(200);
    }
  });
});
