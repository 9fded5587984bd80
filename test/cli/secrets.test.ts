import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { keyIdOf } from '../../src/adapters/secrets/aes-gcm.secret-box';
import { runCli } from '../../src/cli/cli';
import { loadConfig } from '../../src/config';
import type { DatasetClientApplication } from '../../src/store/dataset/dataset.types';
import { Client } from 'pg';
import { POSTGRES_URL } from '../support/dialects';
import { buildWorld, worldDataset, type World } from '../support/factories';
import { itOnPostgres } from '../support/harness';
import { listenOnLoopback, startGateway } from '../support/gateway';
import { createTestApp, oauthHeader } from '../support/http';
import { configProblems, runCommand, tempDir, testIo } from './cli-support';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const id = (key: string) => keyIdOf(Buffer.from(key, 'base64'));

type Credentials = Pick<DatasetClientApplication, 'consumer_key' | 'consumer_secret'>;

/** A GET signed with OAuth 1.0 to a server on loopback (signed for host `localhost`, as sent). */
function signedGet(base: string, client: Credentials, url: string): Promise<number> {
  const authorization = oauthHeader(client, { method: 'GET', url });
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}${url}`,
      { headers: { host: 'localhost', authorization } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
  });
}

/** The command line against one database: one command to its end, or `serve` until `stop()`. */
function cliAgainst(databaseUrl: () => string) {
  const run = (argv: string[], env: Record<string, string> = {}, stdin?: string) =>
    runCommand(argv, { DATABASE_URL: databaseUrl(), ...env }, stdin);

  /** `serve` until `stop()`; its URL and output. */
  async function serve(env: Record<string, string>) {
    const t = testIo({ DATABASE_URL: databaseUrl(), PORT: '0', ...env });
    const running = runCli(['serve'], t.io);
    const url = (await t.line(/^facility-ops listening on /)).split(' ').pop()!;
    return {
      url,
      out: t.out,
      stop: async () => {
        t.stop();
        expect(await running).toBe(0);
      },
    };
  }
  return { run, serve };
}

describe('facility-ops secrets (SQLite file)', () => {
  let dir: string;
  let remove: () => void;
  let databaseUrl: string;
  let world: World;
  let flippers: string;

  beforeAll(() => {
    ({ dir, remove } = tempDir());
    databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
    world = buildWorld();
    flippers = `/v1/${world.facility.id}/flippers`;
  });
  afterAll(() => remove());

  const { run, serve } = cliAgainst(() => databaseUrl);

  it('refuses production without a key in one line, and says so when clear storage was chosen', async () => {
    const refused = await run(['serve'], { NODE_ENV: 'production', PORT: '0' });
    expect(refused.code).toBe(2);
    expect(refused.err.split('\n')).toEqual([
      'facility-ops: invalid configuration:',
      '  SECRETS_KEY: production keeps stored secrets encrypted: set SECRETS_KEY or SECRETS_KEY_FILE (32 random bytes in base64: openssl rand -base64 32), or SECRETS_KEY=none-i-accept-clear-secrets to keep them in clear',
    ]);
    const bad = await run(['serve'], { SECRETS_KEY: K1.slice(0, 20) });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      '  SECRETS_KEY: expected 32 random bytes in base64 (openssl rand -base64 32), got 15 bytes',
    );
    expect(bad.err).not.toContain(K1.slice(0, 20));

    expect((await run(['import', writeWorld()])).code).toBe(0);
    const chosen = await serve({ NODE_ENV: 'production', SECRETS_KEY: 'none-i-accept-clear-secrets' });
    expect(chosen.out).toContain(
      'secrets at rest: in clear, as SECRETS_KEY=none-i-accept-clear-secrets chose',
    );
    expect(await signedGet(chosen.url, world.client, flippers)).toBe(200);
    await chosen.stop();
  });

  function writeWorld(): string {
    const file = path.join(dir, 'world.json');
    fs.writeFileSync(file, JSON.stringify(worldDataset(world)));
    return file;
  }

  it('seals the clear secrets on the first start with a key, then rotate-key changes keys while a server answers', async () => {
    const made = await run(['clients', 'create', '--company', world.company.id, '--name', 'Desk', '--json']);
    expect(made.code).toBe(0);
    const client = JSON.parse(made.out) as Credentials;
    const before = await run(['secrets', 'status']);
    expect(before.out).toContain('secrets at rest: in clear (no SECRETS_KEY');
    expect(before.out).toContain('  client_applications.consumer_secret: 3 in clear');

    // First start with the key: the three clear consumer secrets and the installation's sealing key
    // (made by the first serve, above) are sealed, and the output says so.
    const first = await serve({ SECRETS_KEY: K1 });
    expect(first.out).toContain(
      `secrets at rest: sealed 4 stored secrets that were in clear under key ${id(K1)}`,
    );
    expect(first.out).toContain(`secrets at rest: encrypted (AES-256-GCM) under key ${id(K1)}`);
    expect(await signedGet(first.url, client, flippers)).toBe(200);
    await first.stop();
    const sealedStatus = (await run(['secrets', 'status'], { SECRETS_KEY: K1 })).out;
    expect(sealedStatus).toContain(`  client_applications.consumer_secret: 3 under ${id(K1)}`);
    expect(sealedStatus).toContain(`  sealing_certificates.private_key_pem: 1 under ${id(K1)}`);

    // Rotation: the server is given the new key and the old one; rotate-key runs while it answers.
    const changeOver = { SECRETS_KEY: K2, SECRETS_KEY_PREVIOUS: K1 };
    const server = await serve(changeOver);
    expect(server.out).toContain(
      `secrets at rest: encrypted (AES-256-GCM) under key ${id(K2)} (also opening ${id(K1)})`,
    );
    const statuses: number[] = [];
    let rotating = true;
    const traffic = (async () => {
      while (rotating || statuses.length < 10) {
        for (const c of [client, world.client]) statuses.push(await signedGet(server.url, c, flippers));
      }
    })();
    const rotated = await run(['secrets', 'rotate-key'], changeOver);
    rotating = false;
    await traffic;
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain(`secrets rotate-key: 4 stored secrets sealed again under key ${id(K2)}`);
    expect(new Set(statuses)).toEqual(new Set([200]));
    await server.stop();

    // The old key can go now.
    const status = await run(['secrets', 'status'], { SECRETS_KEY: K2 });
    expect(status.out).toContain(`  client_applications.consumer_secret: 3 under ${id(K2)}`);
    const newOnly = await serve({ SECRETS_KEY: K2 });
    expect(await signedGet(newOnly.url, client, flippers)).toBe(200);
    await newOnly.stop();
    // ... and the old one alone no longer opens anything: the service does not start, naming the
    // sealing key it cannot open (it would seal nothing); a client's requests would get 401
    // (test/secrets/at-rest.test.ts).
    const oldOnly = await run(['serve'], { SECRETS_KEY: K1, PORT: '0' });
    expect(oldOnly.code).toBe(2);
    expect(oldOnly.err).toContain(
      'sealing_certificates.private_key_pem of 1: the stored secret cannot be read (sealed under key',
    );
  });

  it('rotate-key with a key that opens nothing names every row, writes nothing and exits 1', async () => {
    const stranger = randomBytes(32).toString('base64');
    const refused = await run(['secrets', 'rotate-key'], { SECRETS_KEY: stranger });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'facility-ops: secrets rotate-key: 4 stored secrets cannot be read; nothing was written',
    );
    for (const client of [world.client, world.otherClient]) {
      expect(refused.err).toContain(
        `  client_applications.consumer_secret of ${client.id}: the stored secret cannot be read (sealed under key ${id(K2)}, which is not SECRETS_KEY (${id(stranger)}) nor among SECRETS_KEY_PREVIOUS)`,
      );
    }
    expect(refused.err).toContain(
      `  sealing_certificates.private_key_pem of 1: the stored secret cannot be read (sealed under key ${id(K2)}, which is not SECRETS_KEY (${id(stranger)}) nor among SECRETS_KEY_PREVIOUS)`,
    );
    expect((await run(['secrets', 'status'], { SECRETS_KEY: K2 })).out).toContain(
      `  client_applications.consumer_secret: 3 under ${id(K2)}`,
    );
    const keyless = await run(['secrets', 'rotate-key']);
    expect(keyless.code).toBe(1);
    expect(keyless.err).toContain('secrets rotate-key: needs a key: set SECRETS_KEY or SECRETS_KEY_FILE');
  });
});

describe('facility-ops secrets on PostgreSQL: two instances through a rotation', () => {
  const schema = `t_secrets_${randomBytes(5).toString('hex')}`;
  const databaseUrl = `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const world = buildWorld();
  let remove = () => undefined as void;

  async function admin(statement: string) {
    const client = new Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
  afterAll(async () => {
    remove();
    await admin(`drop schema if exists ${schema} cascade`).catch(() => undefined);
  });

  const { run, serve } = cliAgainst(() => databaseUrl);

  itOnPostgres(
    'both instances answer before, during and after rotate-key; two first starts seal each value once',
    async () => {
      await admin(`create schema ${schema}`);
      const temp = tempDir();
      remove = temp.remove;
      const file = path.join(temp.dir, 'world.json');
      fs.writeFileSync(file, JSON.stringify(worldDataset(world)));
      expect((await run(['import', file])).code).toBe(0);
      const flippers = `/v1/${world.facility.id}/flippers`;

      // Two instances started together with the first key: the two clear secrets are sealed once.
      const [a, b] = await Promise.all([serve({ SECRETS_KEY: K1 }), serve({ SECRETS_KEY: K1 })]);
      const sealed = [...a.out, ...b.out].filter((line) => line.startsWith('secrets at rest: sealed'));
      expect(sealed.join('\n')).toMatch(/^secrets at rest: sealed (1|2) stored secrets? that were in clear/);
      expect(sealed.map((line) => Number(line.split(' ')[4])).reduce((x, y) => x + y, 0)).toBe(2);
      await Promise.all([a.stop(), b.stop()]);

      // The change-over: both given the new key and the old one; rotate-key while both answer.
      const changeOver = { SECRETS_KEY: K2, SECRETS_KEY_PREVIOUS: K1 };
      const servers = await Promise.all([serve(changeOver), serve(changeOver)]);
      const statuses: number[] = [];
      let rotating = true;
      const traffic = (async () => {
        while (rotating || statuses.length < 10) {
          for (const server of servers) statuses.push(await signedGet(server.url, world.client, flippers));
        }
      })();
      const rotated = await run(['secrets', 'rotate-key'], changeOver);
      rotating = false;
      await traffic;
      expect(rotated.code).toBe(0);
      // The two consumer secrets, and the sealing key the first starts made (sealed as it was made).
      expect(rotated.out).toContain(`secrets rotate-key: 3 stored secrets sealed again under key ${id(K2)}`);
      expect(new Set(statuses)).toEqual(new Set([200]));
      await Promise.all(servers.map((server) => server.stop()));

      expect((await run(['secrets', 'status'], { SECRETS_KEY: K2 })).out).toContain(
        `  client_applications.consumer_secret: 2 under ${id(K2)}`,
      );
      const newOnly = await serve({ SECRETS_KEY: K2 });
      expect(await signedGet(newOnly.url, world.client, flippers)).toBe(200);
      await newOnly.stop();
    },
  );
});

describe('facility-ops secrets encrypt: sealed upstream credentials of gateway mode', () => {
  const world = buildWorld();
  let remove: () => void;
  let dir: string;
  beforeAll(() => {
    ({ dir, remove } = tempDir());
  });
  afterAll(() => remove());

  const encrypt = (secret: string, env: Record<string, string>, company?: string) =>
    runCommand(['secrets', 'encrypt', ...(company ? ['--company', company] : [])], env, `${secret}\n`);
  const problems = configProblems;

  it('prints the secret sealed for one company, which only that entry opens; never the secret itself', async () => {
    const sealed = await encrypt(world.client.consumer_secret, { SECRETS_KEY: K1 }, world.company.id);
    expect(sealed.code).toBe(0);
    expect(sealed.out).toMatch(new RegExp(`^enc:v1:${id(K1)}:[A-Za-z0-9+/]+=*$`));
    expect(sealed.out + sealed.err).not.toContain(world.client.consumer_secret);

    const file = path.join(dir, 'upstream.json');
    const entry = (company: string) => ({ [company]: { consumer_key: 'key', consumer_secret: sealed.out } });
    fs.writeFileSync(file, JSON.stringify(entry(world.company.id)));
    const gateway = { UPSTREAM_URL: 'http://127.0.0.1:9', UPSTREAM_CREDENTIALS_FILE: file };
    const config = loadConfig({ NODE_ENV: 'test', SECRETS_KEY: K1, ...gateway });
    expect(config.upstream?.credentialsByCompany.get(world.company.id)?.consumerSecret).toBe(
      world.client.consumer_secret,
    );
    expect(problems({ ...gateway })).toEqual([
      `UPSTREAM_CREDENTIALS_FILE: ${world.company.id}: the consumer secret cannot be read (it is encrypted under key ${id(K1)} and no SECRETS_KEY is set)`,
    ]);
    // The value moved to another company's entry, or to UPSTREAM_CONSUMER_SECRET, does not open.
    fs.writeFileSync(file, JSON.stringify(entry(world.otherCompany.id)));
    expect(problems({ SECRETS_KEY: K1, ...gateway })).toEqual([
      `UPSTREAM_CREDENTIALS_FILE: ${world.otherCompany.id}: the consumer secret cannot be read (key ${id(K1)} does not open it: altered, or copied from another row or column)`,
    ]);
    expect(
      problems({
        SECRETS_KEY: K1,
        UPSTREAM_URL: 'http://127.0.0.1:9',
        UPSTREAM_CONSUMER_KEY: 'key',
        UPSTREAM_CONSUMER_SECRET: sealed.out,
      }),
    ).toEqual([
      `UPSTREAM_CONSUMER_SECRET: the consumer secret cannot be read (key ${id(K1)} does not open it: altered, or copied from another row or column)`,
    ]);
  });

  it('refuses without a key, with empty input, a bad company id or a value already sealed', async () => {
    expect((await encrypt('s', {})).err).toContain('secrets encrypt: needs a key');
    expect((await encrypt('', { SECRETS_KEY: K1 })).err).toContain('standard input is empty');
    expect((await encrypt('s', { SECRETS_KEY: K1 }, 'nope')).code).toBe(2);
    const sealed = (await encrypt('s', { SECRETS_KEY: K1 })).out;
    expect((await encrypt(sealed, { SECRETS_KEY: K1 })).err).toContain('the value given is already sealed');
  });

  it('a gateway given sealed upstream credentials calls the upstream with the secret they hold', async () => {
    const upstream = await createTestApp('sqlite');
    try {
      const sealed = await encrypt(
        upstream.world.client.consumer_secret,
        { SECRETS_KEY: K1 },
        upstream.world.company.id,
      );
      const gateway = await startGateway(
        'sqlite',
        await listenOnLoopback(upstream.app),
        upstream.world,
        { SECRETS_KEY: K1 },
        { upstreamSecrets: { [upstream.world.company.id]: sealed.out } },
      );
      try {
        const url = `/v1/${upstream.world.facility.id}/flippers`;
        const res = await gateway.app.inject({
          method: 'GET',
          url,
          headers: { authorization: oauthHeader(upstream.world.client, { method: 'GET', url }) },
        });
        expect(res.statusCode).toBe(200);
      } finally {
        await gateway.close();
      }
    } finally {
      await upstream.close();
    }
  });
});
