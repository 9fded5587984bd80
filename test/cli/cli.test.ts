import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/cli';
import { openStore, type Store } from '../../src/store/database';
import { MIGRATION_NAMES } from '../../src/store/migrator';
import { demoDataset, demoDirectory } from '../../src/store/seed/demo-data';
import { buildTenant, buildUnit, buildWorld, worldDataset } from '../support/factories';
import { runCommand, tempDir, testIo } from './cli-support';

const TODAY = '2026-11-21';

async function count(
  url: string,
  table: 'companies' | 'tenants' | 'units' | 'rate_changes' | 'client_applications',
) {
  const store: Store = openStore(url);
  try {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await store.close();
  }
}

describe('facility-ops command line', () => {
  let dir: string;
  let remove: () => void;
  let databaseUrl: string;
  beforeEach(() => {
    ({ dir, remove } = tempDir());
    databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
  });
  afterEach(() => remove());

  const run = (argv: string[], env: Record<string, string> = {}) =>
    runCommand(argv, { DATABASE_URL: databaseUrl, ...env });

  describe('usage', () => {
    it('prints the usage and exits 2 without a command, 0 for help', async () => {
      const none = await run([]);
      expect(none.code).toBe(2);
      expect(none.out).toMatch(/^Usage: facility-ops <command>/);
      const help = await run(['help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain('clients create --company <id> --name <name> [--json | --export <prefix>]');
    });

    it.each([
      [['start', '--help'], 'Usage: facility-ops start'],
      [['serve', '-h'], 'Usage: facility-ops serve'],
      [['migrate', '--help'], 'Usage: facility-ops migrate'],
      [['import', '--help'], 'Usage: facility-ops import <file>'],
      [['import', 'data.json', '--help'], 'Usage: facility-ops import <file>'],
      [['seed', '--help'], '--scale N            Multiplies the data'],
      [['clients', '--help'], 'Usage: facility-ops clients create --company <id>'],
      [['clients', 'create', '--help'], '--company <id>      The company'],
      [['help', 'seed'], 'Usage: facility-ops seed [--scale N]'],
      [['help', 'help'], 'Usage: facility-ops help [<command>]'],
    ])("%j prints that command's own help and exits 0, doing nothing", async (argv, expected) => {
      const result = await run(argv);
      expect(result).toEqual({ code: 0, out: expect.stringContaining(expected), err: '' });
      expect(fs.existsSync(path.join(dir, 'ops.db'))).toBe(false);
    });

    it('refuses help for what is not a command', async () => {
      const result = await run(['help', 'bogus']);
      expect(result.code).toBe(2);
      expect(result.err).toContain('facility-ops: no help for "bogus": it is not a command');
    });

    it.each([
      [['bogus'], 'unknown command "bogus"'],
      [['import'], 'import needs a file: facility-ops import <file>'],
      [['import', 'a.json', 'b.json'], 'unexpected argument "b.json"'],
      [['migrate', 'now'], 'unexpected argument "now"'],
      [['seed', '--scale', '0'], '--scale must be a whole number from 1 to 1000, got "0"'],
      [['seed', '--scale', 'lots'], '--scale must be a whole number from 1 to 1000, got "lots"'],
      [['seed', '--today', '2026-02-30'], '--today must be a date YYYY-MM-DD, got "2026-02-30"'],
      [['seed', '--bogus'], "Unknown option '--bogus'"],
      [['clients'], 'clients needs an action: create, list, revoke, rotate'],
      [['clients', 'delete'], 'unknown clients action "delete" (create, list, revoke, rotate)'],
      [['clients', 'create', '--name', 'Desk'], '--company <id> is required'],
      [
        ['clients', 'create', '--company', 'c0c0c0c0-0000-4000-8000-000000000000'],
        '--name <name> is required',
      ],
      [
        ['clients', 'create', '--company', 'acme', '--name', 'Desk'],
        '--company must be a company id (a UUID), got "acme"',
      ],
      [
        ['clients', 'create', '--company', 'c0c0c0c0-0000-4000-8000-000000000000', '--name', '  '],
        '--name must be 1 to 200 characters',
      ],
      [
        [
          'clients',
          'create',
          '--company',
          'c0c0c0c0-0000-4000-8000-000000000000',
          '--name',
          'G',
          '--export',
          'A;B',
        ],
        '--export must be a prefix of shell variable names (A-Z, 0-9, _), got "A;B"',
      ],
      [
        [
          'clients',
          'create',
          '--company',
          'c0c0c0c0-0000-4000-8000-000000000000',
          '--name',
          'G',
          '--export',
          'X_',
          '--json',
        ],
        '--json and --export cannot be used together',
      ],
    ])('refuses %j with a usage error (exit 2)', async (argv, message) => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.err).toContain(`facility-ops: ${message}`);
      // That command's usage, not the list of every command.
      const command = argv[0];
      if (command === 'bogus') expect(result.err).toContain('Usage: facility-ops <command>');
      else {
        expect(result.err).toContain(`Usage: facility-ops ${command}`);
        expect(result.err).toContain(`More: facility-ops ${command} --help`);
        expect(result.err).not.toContain('Commands:');
      }
      expect(fs.existsSync(path.join(dir, 'ops.db'))).toBe(false);
    });

    it.each([
      [
        ['seed', '--scale', 'abc'],
        'Usage: facility-ops seed [--scale N] [--today YYYY-MM-DD] [--out <file>]',
      ],
      [
        ['clients', 'create', '--company', 'nope', '--name', 'Desk'],
        [
          'Usage: facility-ops clients create --company <id> --name <name> [--json | --export <prefix>]',
          '       facility-ops clients list [--company <id>] [--json]',
          '       facility-ops clients revoke <client id> [--json]',
          '       facility-ops clients rotate <client id> [--grace-hours N] [--json]',
        ].join('\n'),
      ],
    ])("answers %j with the message and that command's usage alone", async (argv, usage) => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      const lines = result.err.split('\n');
      expect(lines[0]).toMatch(/^facility-ops: --\w+ must be/);
      expect(lines.slice(1)).toEqual(['', ...usage.split('\n'), '', `More: facility-ops ${argv[0]} --help`]);
    });

    it('answers a bad help topic with the list of commands', async () => {
      const result = await run(['help', 'bogus']);
      expect(result.err).toContain('Commands:');
    });

    it('lists every configuration problem and exits 2', async () => {
      const result = await run(['migrate'], { PORT: 'abc', LOG_LEVEL: 'loud' });
      expect(result.code).toBe(2);
      expect(result.err.split('\n')).toEqual([
        'facility-ops: invalid configuration:',
        '  LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
        '  PORT: expected a whole number from 0 to 65535, got "abc"',
      ]);
    });
  });

  describe('gateway mode settings', () => {
    it('stops the start with the list of bad gateway settings, no secret in it', async () => {
      const file = path.join(dir, 'upstream.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          'not-a-company': { consumer_key: 'k', consumer_secret: 's3cret-one' },
          'c0c0c0c0-0000-4000-8000-000000000000': { consumer_key: 'k' },
        }),
      );
      const result = await run(['serve'], {
        UPSTREAM_URL: 'ftp://ops.example.com/v1?x=1',
        UPSTREAM_CREDENTIALS_FILE: file,
        UPSTREAM_CONSUMER_KEY: 'only-the-key',
        UPSTREAM_TIMEOUT_MS: '5',
      });
      expect(result.code).toBe(2);
      expect(result.err.split('\n')).toEqual([
        'facility-ops: invalid configuration:',
        '  UPSTREAM_URL: expected the http:// or https:// base URL of a /v1 deployment, without query, fragment or user, got "ftp://ops.example.com/v1?x=1"',
        '  UPSTREAM_CREDENTIALS_FILE: "not-a-company" is not a company id (a UUID)',
        '  UPSTREAM_CREDENTIALS_FILE: c0c0c0c0-0000-4000-8000-000000000000: expected {"consumer_key": "...", "consumer_secret": "..."}',
        '  UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET: set both or neither',
        '  UPSTREAM_TIMEOUT_MS: expected a whole number from 100 to 600000, got "5"',
      ]);
      expect(result.err).not.toContain('s3cret-one');
    });

    it('imports only the callers of a dataset file in gateway mode, naming what it skipped', async () => {
      const world = buildWorld();
      const file = path.join(dir, 'world.json');
      fs.writeFileSync(file, JSON.stringify(worldDataset(world)));
      const gateway = {
        UPSTREAM_URL: 'http://127.0.0.1:9',
        UPSTREAM_CONSUMER_KEY: 'k',
        UPSTREAM_CONSUMER_SECRET: 's',
      };
      const result = await run(['import', file], gateway);
      expect(result.code).toBe(0);
      expect(result.out).toContain('gateway mode: the upstream keeps the data; skipped 2 facilities');
      expect(await count(databaseUrl, 'companies')).toBe(2);
      expect(await count(databaseUrl, 'client_applications')).toBe(2);
      expect(await count(databaseUrl, 'tenants')).toBe(0);
    });

    it.each([
      [
        { UPSTREAM_URL: 'http://127.0.0.1:9/' },
        '  UPSTREAM_URL: gateway mode needs upstream credentials: UPSTREAM_CREDENTIALS_FILE, or UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET',
      ],
      [
        { UPSTREAM_URL: 'http://127.0.0.1:9/v1', UPSTREAM_CONSUMER_KEY: 'k', UPSTREAM_CONSUMER_SECRET: 's' },
        '  UPSTREAM_URL: give the base URL, without /v1 (the gateway adds each path)',
      ],
      [
        { UPSTREAM_CONSUMER_KEY: 'k' },
        '  UPSTREAM_CONSUMER_KEY: set only in gateway mode, with UPSTREAM_URL',
      ],
      [
        { UPSTREAM_URL: 'http://127.0.0.1:9', UPSTREAM_CREDENTIALS_FILE: '/nonexistent/upstream.json' },
        '  UPSTREAM_CREDENTIALS_FILE: no file /nonexistent/upstream.json',
      ],
    ])('refuses %j', async (env, line) => {
      const result = await run(['serve'], env);
      expect(result.code).toBe(2);
      expect(result.err.split('\n')).toContain(line);
    });
  });

  describe('migrate', () => {
    it('brings a new database to the latest schema, then finds it up to date', async () => {
      const first = await run(['migrate']);
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/^migrated sqlite:.*ops\.db: 20261121120000_initial$/m);
      expect(first.out).toMatch(/is up to date \(\d+ migrations applied\)$/);
      const second = await run(['migrate']);
      expect(second).toEqual({ code: 0, out: `${databaseUrl} was already up to date`, err: '' });
    });
  });

  describe('import', () => {
    const writeJson = (name: string, content: unknown) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    };

    it('loads a valid file, prints the count per table, and loads it again without new rows', async () => {
      const world = buildWorld();
      const file = writeJson('world.json', {
        ...worldDataset(world),
        tenants: [
          buildTenant({ facility_id: world.facility.id }),
          buildTenant({ facility_id: world.facility.id }),
        ],
        units: [buildUnit({ facility_id: world.facility.id })],
      });
      const first = await run(['import', file]);
      expect(first.code).toBe(0);
      expect(first.out.split('\n')).toEqual([
        ...Array.from(MIGRATION_NAMES, () => expect.stringMatching(/^migrated /)),
        `imported ${file} into ${databaseUrl}:`,
        '  companies             2',
        '  facilities            2',
        '  tenants               2',
        '  units                 1',
        '  client_applications   2',
        '  bearer_tokens         2',
        '  total                11',
      ]);
      const again = await run(['import', file]);
      expect(again.code).toBe(0);
      expect(again.out.split('\n').slice(1)).toEqual(first.out.split('\n').slice(MIGRATION_NAMES.length + 1));
      expect(await count(databaseUrl, 'tenants')).toBe(2);
    });

    it('refuses a file with a bad reference, naming the record and field, and writes nothing', async () => {
      const world = buildWorld();
      const stranger = 'c0c0c0c0-0000-4000-8000-000000000000';
      const file = writeJson('bad.json', {
        ...worldDataset(world),
        tenants: [buildTenant({ facility_id: world.facility.id }), buildTenant({ facility_id: stranger })],
      });
      const result = await run(['import', file]);
      expect(result.code).toBe(1);
      expect(result.err.split('\n')).toEqual([
        'facility-ops: dataset refused, nothing was written (1 problem):',
        `  tenants[1].facility_id: no facility ${stranger}`,
      ]);
      expect(await count(databaseUrl, 'companies')).toBe(0);
    });

    it('names schema problems', async () => {
      const file = writeJson('schema.json', { version: 2, companies: [{ id: 'x' }] });
      const result = await run(['import', file]);
      expect(result.code).toBe(1);
      expect(result.err).toContain('companies[0].name: is required');
      expect(result.err).toContain('version: must be equal to constant');
    });

    it('says so when the file is not JSON or not there', async () => {
      const broken = writeJson('broken.json', '{"version": 1,');
      const notJson = await run(['import', broken]);
      expect(notJson.code).toBe(1);
      expect(notJson.err).toMatch(new RegExp(`^facility-ops: ${broken}: not valid JSON \\(.+\\)$`));
      const missing = await run(['import', path.join(dir, 'nowhere.json')]);
      expect(missing).toEqual({
        code: 1,
        out: '',
        err: `facility-ops: ${path.join(dir, 'nowhere.json')}: no such file`,
      });
      expect(fs.existsSync(path.join(dir, 'ops.db'))).toBe(false);
    });
  });

  describe('seed', () => {
    it('writes the same dataset file on every run, and that file imports', async () => {
      const first = path.join(dir, 'first.json');
      const second = path.join(dir, 'second.json');
      const written = await run(['seed', '--today', TODAY, '--out', first]);
      expect(written.code).toBe(0);
      expect(written.out).toContain(`wrote demo data (scale 1, reference date ${TODAY}) to ${first}`);
      expect((await run(['seed', '--today', TODAY, '--out', second])).code).toBe(0);
      const text = fs.readFileSync(first, 'utf8');
      expect(fs.readFileSync(second, 'utf8')).toBe(text);
      // testIo's "now" is on TODAY: the data stops there.
      expect(JSON.parse(text)).toEqual(
        demoDataset({ scale: 1, today: TODAY, now: '2026-11-21T15:00:00.000Z' }),
      );
      expect(fs.existsSync(path.join(dir, 'ops.db'))).toBe(false);

      const imported = await run(['import', first]);
      expect(imported.code).toBe(0);
      expect(imported.out).toMatch(/^ {2}rate_changes +12,800$/m);
    });

    it('loads the demo data and reports records per second', async () => {
      const result = await run(['seed']);
      expect(result.code).toBe(0);
      expect(result.out).toContain(
        `seeding demo data (scale 1, reference date ${TODAY}) into ${databaseUrl}`,
      );
      expect(result.out).toMatch(/^loaded [\d,]+ records in [\d.]+ s \([\d,]+ records\/s\):$/m);
      expect(result.out).toMatch(/^ {2}rate_changes +12,800$/m);
      expect(await count(databaseUrl, 'companies')).toBe(4);
    });
  });

  describe('clients create', () => {
    it('makes a client application whose bearer token works, and refuses an unknown company', async () => {
      expect((await run(['seed'])).code).toBe(0);
      const [company] = demoDirectory();
      const made = await run(['clients', 'create', '--company', company.id, '--name', 'Front desk']);
      expect(made.code).toBe(0);
      expect(made.out).toContain(
        `client application "Front desk" of Harbor Self Storage (company ${company.id})`,
      );
      expect(made.out).toMatch(/^ {2}consumer key {5}[0-9a-f]{32}$/m);
      expect(made.out).toMatch(/^ {2}consumer secret {2}[A-Za-z0-9_-]{43}$/m);
      expect(made.out).toMatch(/^ {2}bearer token {5}[A-Za-z0-9_-]{43}$/m);

      const json = await run([
        'clients',
        'create',
        '--company',
        company.id.toUpperCase(),
        '--name',
        'Kiosk',
        '--json',
      ]);
      expect(json.code).toBe(0);
      const created = JSON.parse(json.out);
      expect(Object.keys(created)).toEqual([
        'id',
        'company_id',
        'name',
        'consumer_key',
        'consumer_secret',
        'bearer_token',
      ]);
      expect(created).toMatchObject({ company_id: company.id, name: 'Kiosk' });

      const exported = await run([
        'clients',
        'create',
        '--company',
        company.id,
        '--name',
        'Gateway',
        '--export',
        'UPSTREAM_',
      ]);
      expect(exported.code).toBe(0);
      expect(exported.out).toMatch(
        /^export UPSTREAM_CONSUMER_KEY='[0-9a-f]{32}' UPSTREAM_CONSUMER_SECRET='[A-Za-z0-9_-]{43}'$/,
      );
      expect(await count(databaseUrl, 'client_applications')).toBe(3);

      const unknown = await run([
        'clients',
        'create',
        '--company',
        'c0c0c0c0-0000-4000-8000-000000000000',
        '--name',
        'X',
      ]);
      expect(unknown).toEqual({
        code: 1,
        out: '',
        err: 'facility-ops: no company c0c0c0c0-0000-4000-8000-000000000000: load or seed data first, or check the id',
      });
    });
  });

  describe('serve and start', () => {
    it('serves until asked to stop, then exits 0', async () => {
      expect((await run(['migrate'])).code).toBe(0);
      const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0' });
      const running = runCli(['serve'], t.io);
      const url = (await t.line(/^facility-ops listening on /)).split(' ').pop()!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      t.stop('SIGTERM');
      expect(await running).toBe(0);
      expect(t.out.slice(-2)).toEqual(['SIGTERM: finishing requests in flight, then stopping', 'stopped']);
    });

    it('seed refuses, writing nothing, while a server has the SQLite file open; import runs beside it', async () => {
      expect((await run(['migrate'])).code).toBe(0);
      const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0' });
      const running = runCli(['serve'], t.io);
      try {
        await t.line(/^facility-ops listening on /);
        const seeded = await run(['seed']);
        expect(seeded.code).toBe(1);
        expect(seeded.err).toContain('facility-ops: the database file is open in another process');
        expect(seeded.err).toContain('`facility-ops seed --out demo.json`');
        expect(await count(databaseUrl, 'companies')).toBe(0);

        const file = path.join(dir, 'world.json');
        fs.writeFileSync(file, JSON.stringify(worldDataset(buildWorld())));
        expect(await run(['import', file])).toMatchObject({ code: 0, err: '' });
        expect(await count(databaseUrl, 'companies')).toBeGreaterThan(0);
      } finally {
        t.stop('SIGTERM');
        expect(await running).toBe(0);
      }
      // Alone with the file again, seed takes its fast path.
      expect((await run(['seed'])).code).toBe(0);
    });

    it('refuses to serve a database without a schema', async () => {
      const result = await run(['serve'], { PORT: '0' });
      expect(result).toEqual({
        code: 1,
        out: '',
        err: 'facility-ops: the database has no schema yet: run `facility-ops migrate` (or `start`) first',
      });
    });

    it('start loads the demo data once and prints credentials and curl commands that work', async () => {
      const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0' });
      const running = runCli(['start'], t.io);
      await t.line(/^Stop it with Ctrl-C\.$/);
      const out = t.out.join('\n');
      expect(out).toContain(`empty database: loading the demo data (reference date ${TODAY})`);
      const token = /^ {2}bearer token {5}(\S+)$/m.exec(out)![1];
      expect(out).toMatch(/^ {2}consumer key {5}[0-9a-f]{32}$/m);
      expect(out).toMatch(/^ {2}consumer secret {2}\S+$/m);
      const curls = out.split('\n').filter((line) => line.startsWith('  curl '));
      expect(curls).toHaveLength(2);
      const [company] = demoDirectory();

      // Each line as a shell would read it: the header in double quotes, the URL bare or in single quotes.
      const request = (line: string) => {
        const match = /^ {2}curl -s -H "Authorization: Bearer ([^"]+)" '?([^' ]+)'?$/.exec(line)!;
        expect(match[1]).toBe(token);
        return fetch(match[2], { headers: { authorization: `Bearer ${match[1]}` } });
      };
      const flippers = await request(curls[0]);
      expect(flippers.status).toBe(200);
      expect(((await flippers.json()) as { flippers: string[] }).flippers).toEqual([
        'esign_documents',
        'rate_change_updates',
        'rental_center',
        'retail_payments',
        'tenant_portal_v2',
      ]);
      expect(curls[1]).toContain(
        `/v1/companies/${company.id}/rate_change_updates?updated_after=2023-11-22T00%3A00%3A00%2B00%3A00`,
      );
      const updates = await request(curls[1]);
      expect(updates.status).toBe(200);
      const body = (await updates.json()) as {
        rate_change_updates: unknown[];
        meta: { pagination: { total_entries: number } };
      };
      expect(body.rate_change_updates).toHaveLength(5);
      expect(body.meta.pagination.total_entries).toBe(10_000);

      t.stop('SIGINT');
      expect(await running).toBe(0);

      const later = testIo({ DATABASE_URL: databaseUrl, PORT: '0' });
      const again = runCli(['start'], later.io);
      await later.line(/^Stop it with Ctrl-C\.$/);
      const laterOut = later.out.join('\n');
      expect(laterOut).not.toContain('loading the demo data');
      expect(laterOut).not.toMatch(/^ {2}bearer token /m);
      expect(laterOut).toContain(
        `  npx facility-ops clients create --company ${company.id} --name "My client"`,
      );
      expect(laterOut).toContain('  curl -s -H "Authorization: Bearer $TOKEN" ');
      later.stop();
      expect(await again).toBe(0);
      expect(await count(databaseUrl, 'client_applications')).toBe(1);
    });

    it('start in production serves an empty database without demo data', async () => {
      const t = testIo({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        NODE_ENV: 'production',
        SECRETS_KEY: randomBytes(32).toString('base64'),
      });
      const running = runCli(['start'], t.io);
      await t.line(/^Stop it with Ctrl-C\.$/);
      expect(t.out.join('\n')).toContain('holds no data; load some with `facility-ops import <file>`');
      expect(t.out).toContainEqual(
        expect.stringMatching(/^secrets at rest: encrypted \(AES-256-GCM\) under key [0-9a-f]{8}$/),
      );
      t.stop();
      expect(await running).toBe(0);
      expect(await count(databaseUrl, 'companies')).toBe(0);
    });
  });
});
