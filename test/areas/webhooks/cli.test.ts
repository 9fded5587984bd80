import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runCli } from '../../../src/cli/cli';
import { importDataset } from '../../../src/store/dataset/dataset.import';
import { openStore } from '../../../src/store/database';
import { migrateToLatest } from '../../../src/store/migrator';
import { SqlWebhookEndpointsRepository } from '../../../src/areas/webhooks/webhooks.repository';
import { outboxRows } from '../../../src/areas/outbox/outbox.repository';
import { DATASET_PLANS, WEBHOOK_EVENT_TYPES } from '../../../src/modules';
import { secretBoxFor } from '../../../src/adapters/secrets/aes-gcm.secret-box';
import { buildWorld, worldDataset, type World } from '../../support/factories';
import { tempDir, testIo } from '../../cli/cli-support';

describe('facility-ops webhooks', () => {
  let dir: string;
  let remove: () => void;
  let databaseUrl: string;
  let world: World;

  beforeEach(async () => {
    ({ dir, remove } = tempDir());
    databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
    const store = openStore(databaseUrl);
    await migrateToLatest(store.db);
    world = buildWorld();
    await importDataset(store, DATASET_PLANS, worldDataset(world));
    await store.close();
  });
  afterEach(() => remove());

  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const t = testIo({ DATABASE_URL: databaseUrl, ...env });
    const code = await runCli(['webhooks', ...argv], t.io);
    return { code, out: t.out.join('\n'), err: t.err.join('\n') };
  };
  const endpointRows = async () => {
    const store = openStore(databaseUrl);
    try {
      return await store.db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').execute();
    } finally {
      await store.close();
    }
  };
  const create = (...extra: string[]) =>
    run([
      'create',
      '--company',
      world.company.id,
      '--url',
      'https://hooks.example.com/facility-ops',
      '--events',
      'note.created, payment.succeeded',
      ...extra,
    ]);

  it('creates an endpoint and prints its secret once; lists, disables, enables and rotates it', async () => {
    const made = await create('--description', 'Billing sync');
    expect(made).toMatchObject({ code: 0, err: '' });
    const [row] = await endpointRows();
    expect(made.out.split('\n')).toEqual([
      `webhook endpoint ${row.id} of ${world.company.name} (company ${world.company.id})`,
      '  url          https://hooks.example.com/facility-ops',
      '  events       payment.succeeded, note.created',
      '  description  Billing sync',
      '  state        enabled',
      `  created      ${row.created_at}`,
      `  secret       ${row.secret}`,
      'The secret is shown only now: keep it somewhere safe; receivers verify each delivery with it.',
    ]);
    expect(row.secret).toMatch(/^whsec_/);

    const listed = await run(['list', '--company', world.company.id]);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`webhook endpoint ${row.id}`);
    expect(listed.out).not.toContain(row.secret);
    const json = await run(['list', '--company', world.company.id, '--json']);
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({
        id: row.id,
        enabled: true,
        event_types: ['payment.succeeded', 'note.created'],
      }),
    ]);
    expect(json.out).not.toContain('whsec_');

    const disabled = await run(['disable', row.id]);
    expect(disabled.code).toBe(0);
    expect(disabled.out).toMatch(/^ {2}state {8}disabled by hand at /m);
    expect((await run(['enable', row.id, '--json'])).out).toContain('"enabled":true');

    const rotated = await run(['rotate-secret', row.id, '--json']);
    expect(rotated.code).toBe(0);
    const { secret, previous_secret_expires_at: until } = JSON.parse(rotated.out) as {
      secret: string;
      previous_secret_expires_at: string;
    };
    const [after] = await endpointRows();
    expect(secret).toBe(after.secret);
    expect(after.previous_secret).toBe(row.secret);
    expect(until).toBe(after.previous_secret_expires_at);
  });

  it('prints JSON with the secret on create --json', async () => {
    const made = await create('--json');
    expect(made.code).toBe(0);
    const created = JSON.parse(made.out) as Record<string, unknown>;
    expect(Object.keys(created)).toEqual([
      'id',
      'company_id',
      'url',
      'description',
      'event_types',
      'enabled',
      'disabled_at',
      'disabled_reason',
      'failing_since',
      'created_at',
      'secret_rotated_at',
      'previous_secret_expires_at',
      'secret',
    ]);
    expect(created).toMatchObject({ company_id: world.company.id, description: null, enabled: true });
  });

  it.each([
    ['plain http', ['--url', 'http://hooks.example.com/x'], '--url: must be an https:// URL'],
    [
      'a private address',
      ['--url', 'https://10.0.0.1/x'],
      '--url: must reach a public address: 10.0.0.1 is a private',
    ],
    [
      'this machine',
      ['--url', 'https://localhost:8443/x'],
      '--url: must reach a public address: localhost is this machine',
    ],
    ['a malformed URL', ['--url', 'not a url'], '--url: must be an absolute URL'],
    [
      'an unknown event type',
      ['--events', 'note.created,payment.failed'],
      '--events[1]: is not an event type',
    ],
    [
      'a long description',
      ['--description', 'x'.repeat(501)],
      '--description: must be at most 500 characters',
    ],
  ])('refuses %s naming the option (exit 1), writing nothing', async (_label, change, message) => {
    const base: Record<string, string> = {
      '--url': 'https://hooks.example.com/x',
      '--events': 'note.created',
    };
    for (let i = 0; i < change.length; i += 2) base[change[i]] = change[i + 1];
    const argv = ['create', '--company', world.company.id, ...Object.entries(base).flat()];
    const result = await run(argv);
    expect(result.code).toBe(1);
    expect(result.err).toContain('facility-ops: refused, nothing was written:');
    expect(result.err).toContain(`  ${message}`);
    expect(await endpointRows()).toEqual([]);
  });

  it('takes an http URL at loopback for a host in WEBHOOK_ALLOW_HOSTS', async () => {
    const result = await run(
      [
        'create',
        '--company',
        world.company.id,
        '--url',
        'http://127.0.0.1:8080/hooks',
        '--events',
        'esign.sent',
      ],
      { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    );
    expect(result.code).toBe(0);
    expect(await endpointRows()).toHaveLength(1);
    // Taken here, but the running service checks each delivery against its own list.
    expect(result.err).toBe(
      "note: 127.0.0.1 is in WEBHOOK_ALLOW_HOSTS of this command's environment; deliveries go only if " +
        "the running service's WEBHOOK_ALLOW_HOSTS names it too (set it there and restart it, or they fail)",
    );
    expect((await create()).err).toBe(''); // a public https URL needs no allowance
  });

  it("lists each endpoint's state: enabled, failing since, disabled and why, secret rotation pending", async () => {
    for (let i = 0; i < 4; i++) expect((await create()).code).toBe(0);
    const [fine, failing, dead, rotated] = await endpointRows();
    const store = openStore(databaseUrl);
    try {
      const endpoints = new SqlWebhookEndpointsRepository(
        store.db,
        secretBoxFor({ storage: 'clear', keys: null }),
        WEBHOOK_EVENT_TYPES,
        outboxRows,
      );
      await endpoints.recordFailure(failing.id, '2026-11-20T09:00:00.000Z', '2026-11-15T09:00:00.000Z');
      await endpoints.recordFailure(dead.id, '2026-11-14T09:00:00.000Z', '2026-11-14T09:00:00.000Z');
    } finally {
      await store.close();
    }
    expect((await run(['rotate-secret', rotated.id])).code).toBe(0);

    const listed = await run(['list', '--company', world.company.id]);
    const stateOf = (id: string) => {
      const block = listed.out.split('webhook endpoint ').find((part) => part.startsWith(id))!;
      return block.split('\n').filter((line) => /^ {2}(state|rotation) /.test(line));
    };
    expect(stateOf(fine.id)).toEqual(['  state        enabled']);
    expect(stateOf(failing.id)).toEqual(['  state        enabled, failing since 2026-11-20T09:00:00.000Z']);
    expect(stateOf(dead.id)).toEqual([
      '  state        disabled at 2026-11-14T09:00:00.000Z after failing since 2026-11-14T09:00:00.000Z ' +
        '(WEBHOOK_DISABLE_AFTER_HOURS); `enable` delivers again',
    ]);
    const [after] = (await endpointRows()).filter((row) => row.id === rotated.id);
    expect(stateOf(rotated.id)).toEqual([
      '  state        enabled',
      `  rotation     rotated at ${after.secret_rotated_at}; the old secret signs too until ${after.previous_secret_expires_at}`,
    ]);
  });

  it('fails (exit 1) for an unknown company or endpoint, and (exit 2) for bad usage', async () => {
    const unknown = randomUUID();
    const company = await run([
      'create',
      '--company',
      unknown,
      '--url',
      'https://a.example.com/',
      '--events',
      'note.created',
    ]);
    expect(company).toMatchObject({ code: 1 });
    expect(company.err).toContain(`facility-ops: no company ${unknown}`);
    const endpoint = await run(['disable', unknown]);
    expect(endpoint).toMatchObject({ code: 1, err: `facility-ops: no webhook endpoint ${unknown}` });
    expect((await run(['replay', unknown])).err).toBe(`facility-ops: no webhook delivery ${unknown}`);

    for (const [argv, message] of [
      [[], 'webhooks needs an action: create, list, disable, enable, rotate-secret, replay'],
      [['delete'], 'unknown webhooks action "delete"'],
      [['create', '--company', world.company.id, '--events', 'note.created'], '--url <url> is required'],
      [
        ['create', '--company', world.company.id, '--url', 'https://a.example.com/'],
        '--events <type,type,...> is required',
      ],
      [['list'], '--company <id> is required'],
      [['list', '--company', 'acme'], '--company must be a company id (a UUID), got "acme"'],
      [['disable'], 'webhooks disable needs an endpoint id'],
    ] as const) {
      const result = await run([...argv]);
      expect(result.code).toBe(2);
      expect(result.err).toContain(`facility-ops: ${message}`);
    }
    expect(await endpointRows()).toEqual([]);
  });

  it('has its own help', async () => {
    const t = testIo({ DATABASE_URL: databaseUrl });
    expect(await runCli(['webhooks', '--help'], t.io)).toBe(0);
    expect(t.out.join('\n')).toContain('Usage: facility-ops webhooks create --company <id> --url <url>');
    const usage = testIo();
    await runCli(['help'], usage.io);
    expect(usage.out.join('\n')).toContain('webhooks create --company <id> --url <url> --events <type,...>');
  });
});
