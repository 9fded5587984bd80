import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import { loadConfig } from '../../../src/config';
import { createOutboxWorker } from '../../../src/outbox.runtime';
import { HttpWebhookTransport } from '../../../src/adapters/webhooks/http-webhook.transport';
import type { HostResolver } from '../../../src/areas/webhooks/webhooks.ports';
import { WebhooksService } from '../../../src/areas/webhooks/webhooks.service';
import { WEBHOOK_EVENT_TYPES } from '../../../src/modules';
import type {
  CompanyWebhooksQuery,
  CompanyWebhooksQueryVariables,
  CreateWebhookEndpointInput,
  CreateWebhookEndpointMutation,
  CreateWebhookEndpointMutationVariables,
  DisableWebhookEndpointMutation,
  DisableWebhookEndpointMutationVariables,
  EnableWebhookEndpointMutation,
  EnableWebhookEndpointMutationVariables,
  ReplayWebhookMessageMutation,
  ReplayWebhookMessageMutationVariables,
  RotateWebhookSecretMutation,
  RotateWebhookSecretMutationVariables,
} from '../../generated/graphql';
import { buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { postGraphql, run, type GraphqlResponse, type Operation } from '../../graphql/graphql-client';
import { startReceiver, verifyDelivery } from '../../support/webhook-receiver';

const DOCUMENT = readFileSync(path.join(__dirname, 'webhooks.graphql'), 'utf8');

function operation<TData, TVariables>(operationName: string): Operation<TData, TVariables> {
  const known = parse(DOCUMENT).definitions.some(
    (d) => d.kind === 'OperationDefinition' && d.name?.value === operationName,
  );
  if (!known) throw new Error(`webhooks.graphql has no operation ${operationName}`);
  return { document: DOCUMENT, operationName };
}

const Create = operation<CreateWebhookEndpointMutation, CreateWebhookEndpointMutationVariables>(
  'CreateWebhookEndpoint',
);
const Disable = operation<DisableWebhookEndpointMutation, DisableWebhookEndpointMutationVariables>(
  'DisableWebhookEndpoint',
);
const Enable = operation<EnableWebhookEndpointMutation, EnableWebhookEndpointMutationVariables>(
  'EnableWebhookEndpoint',
);
const Rotate = operation<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>(
  'RotateWebhookSecret',
);
const Replay = operation<ReplayWebhookMessageMutation, ReplayWebhookMessageMutationVariables>(
  'ReplayWebhookMessage',
);
const Endpoints = operation<CompanyWebhooksQuery, CompanyWebhooksQueryVariables>('CompanyWebhooks');

const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDialect('webhook endpoints in GraphQL', (dialect) => {
  let t: TestApp;
  let unitId: string;
  const closers: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,hooks.internal' } });
    const unit = buildUnit({ facility_id: t.world.facility.id });
    unitId = unit.id;
    await t.load({ units: [unit] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.store.db.deleteFrom('outbox_messages').execute();
    await t.db.store.db.deleteFrom('webhook_endpoints').execute();
  });
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  const create = (input: CreateWebhookEndpointInput, companyId = t.world.company.id) =>
    run(t, Create, { companyId, input });
  /** The same operation as the other company's client application. */
  const asOther = <TData, TVariables>(op: Operation<TData, TVariables>, variables: TVariables) =>
    postGraphql<TData>(
      t.app,
      { query: op.document, operationName: op.operationName, variables },
      { bearer: t.world.otherClient.bearer_token },
    );
  const endpointCount = async () =>
    Number(
      (
        await t.db.store.db
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const errorOf = (res: GraphqlResponse<unknown>) => {
    expect(res.errors).toHaveLength(1);
    return res.errors![0];
  };

  it('registers an endpoint, shows its secret once, and lists it (never the secret) under the company', async () => {
    const res = await create({
      url: 'https://hooks.example.com/facility-ops?tenant=7',
      eventTypes: ['note.created', 'payment.succeeded', 'note.created'],
      description: '  Billing sync  ',
    });
    expect(res.errors).toBeUndefined();
    const { secret, endpoint } = res.data!.createWebhookEndpoint;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/facility-ops?tenant=7',
      description: 'Billing sync',
      // In the order the docs list them, each once.
      eventTypes: ['payment.succeeded', 'note.created'],
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      createdAt: expect.stringMatching(UTC_INSTANT),
      secretRotatedAt: null,
      previousSecretExpiresAt: null,
    });

    const listed = await run(t, Endpoints, { id: t.world.company.id });
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.company!.webhookEndpoints).toEqual([{ ...endpoint, deliveries: [] }]);
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    // The store keeps it to sign with.
    const row = await t.db.store.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toBe(secret);
  });

  it('shows recent deliveries with status, attempts, response code and next attempt; replays one', async () => {
    const hooks = await startReceiver(
      (n) => (n === 0 ? { status: 502, body: 'bad gateway' } : { status: 200 }),
      () => t.clock.now().getTime(),
    );
    closers.push(() => hooks.close());
    const made = await create({ url: hooks.url, eventTypes: ['note.created'] });
    const { endpoint, secret } = made.data!.createWebhookEndpoint;
    for (const text of ['First', 'Second']) {
      const res = await t.postJson(`/v1/${t.world.facility.id}/notes`, {
        note: { note_text: text, unit_id: unitId },
      });
      expect(res.statusCode).toBe(200);
    }
    const worker = createOutboxWorker(
      t.services,
      loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '60000' }),
      { id: 'w1' },
    );
    expect(await worker.runOnce()).toMatchObject({ claimed: 2, sent: 1, retrying: 1 });

    const listed = await run(t, Endpoints, { id: t.world.company.id });
    const deliveries = listed.data!.company!.webhookEndpoints[0].deliveries;
    expect(deliveries).toHaveLength(2);
    const failed = deliveries.find((d) => d.status === 'PENDING')!;
    const sent = deliveries.find((d) => d.status === 'SENT')!;
    expect(failed).toEqual({
      id: expect.any(String),
      eventType: 'note.created',
      facilityId: t.world.facility.id,
      status: 'PENDING',
      attempts: 1,
      responseCode: 502,
      lastError: 'endpoint answered 502: bad gateway',
      nextAttemptAt: expect.stringMatching(UTC_INSTANT),
      createdAt: expect.stringMatching(UTC_INSTANT),
      deliveredAt: null,
    });
    expect(sent).toMatchObject({ attempts: 1, responseCode: 200, lastError: null, nextAttemptAt: null });
    expect(sent.deliveredAt).toMatch(UTC_INSTANT);
    expect(
      (await run(t, Endpoints, { id: t.world.company.id, first: 1 })).data!.company!.webhookEndpoints[0]
        .deliveries,
    ).toHaveLength(1);
    const onlySent = await run(t, Endpoints, { id: t.world.company.id, status: 'SENT' });
    expect(onlySent.data!.company!.webhookEndpoints[0].deliveries.map((d) => d.id)).toEqual([sent.id]);

    // Replaying the delivered one sends it again, with the same webhook-id.
    const replayed = await run(t, Replay, { id: sent.id });
    expect(replayed.data!.replayWebhookMessage).toMatchObject({
      id: sent.id,
      status: 'PENDING',
      attempts: 0,
    });
    expect(await worker.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    const again = hooks.received.filter((d) => d.id === sent.id);
    expect(again).toHaveLength(2);
    for (const delivery of again)
      expect(verifyDelivery(secret, delivery)).toMatchObject({ type: 'note.created' });
    expect(endpoint.id).toBe(listed.data!.company!.webhookEndpoints[0].id);
  });

  it('disables, enables and rotates the secret of its own endpoints', async () => {
    const { endpoint, secret } = (
      await create({ url: 'https://hooks.example.com/a', eventTypes: ['note.created'] })
    ).data!.createWebhookEndpoint;
    const disabled = await run(t, Disable, { id: endpoint.id });
    expect(disabled.data!.disableWebhookEndpoint).toMatchObject({
      enabled: false,
      disabledReason: 'MANUAL',
      disabledAt: expect.stringMatching(UTC_INSTANT),
    });
    const enabled = await run(t, Enable, { id: endpoint.id.toUpperCase() });
    expect(enabled.data!.enableWebhookEndpoint).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
    });

    const rotated = await run(t, Rotate, { id: endpoint.id });
    const { secret: fresh, endpoint: after } = rotated.data!.rotateWebhookSecret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(
      new Date(after.previousSecretExpiresAt!).getTime() - new Date(after.secretRotatedAt!).getTime(),
    ).toBe(24 * 3600 * 1000);
  });

  it("keeps each company to its own endpoints: another company's are FORBIDDEN or NOT_FOUND, and unchanged", async () => {
    const { endpoint } = (
      await create({ url: 'https://hooks.example.com/mine', eventTypes: ['note.created'] })
    ).data!.createWebhookEndpoint;
    await t.postJson(`/v1/${t.world.facility.id}/notes`, { note: { note_text: 'Mine', unit_id: unitId } });
    const [delivery] = await t.db.store.db.selectFrom('outbox_messages').select('id').execute();

    expect(errorOf(await asOther(Endpoints, { id: t.world.company.id })).extensions).toMatchObject({
      code: 'FORBIDDEN',
      errorCode: 13,
    });
    const foreign = errorOf(
      await asOther(Create, {
        companyId: t.world.company.id,
        input: { url: 'https://evil.example.com/', eventTypes: ['note.created'] },
      }),
    );
    expect(foreign).toMatchObject({
      message: `companyId: company ${t.world.company.id} is not this client's`,
      extensions: { code: 'FORBIDDEN', errorCode: 13 },
    });
    for (const op of [Disable, Enable, Rotate] as Array<Operation<unknown, { id: string }>>) {
      const res = await asOther(op, { id: endpoint.id });
      expect(errorOf(res)).toMatchObject({
        message: `id: no webhook endpoint ${endpoint.id}`,
        extensions: { code: 'NOT_FOUND', errorCode: 9, parameter: 'id' },
      });
    }
    expect(errorOf(await asOther(Replay, { id: delivery.id })).extensions).toMatchObject({
      code: 'NOT_FOUND',
      parameter: 'id',
    });
    // The other company sees its own (none), and nothing of the first changed.
    expect(
      (await asOther(Endpoints, { id: t.world.otherCompany.id })).data!.company!.webhookEndpoints,
    ).toEqual([]);
    const mine = await run(t, Endpoints, { id: t.world.company.id });
    expect(mine.data!.company!.webhookEndpoints[0]).toMatchObject({ enabled: true, secretRotatedAt: null });
    expect(errorOf(await run(t, Disable, { id: randomUUID() })).extensions).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it.each([
    ['a URL that is not one', { url: 'hooks dot example' }, 'input.url', 'must be an absolute URL'],
    ['no URL', { url: '  ' }, 'input.url', 'is required'],
    ['another scheme', { url: 'ftp://hooks.example.com/x' }, 'input.url', 'must be an https:// URL'],
    [
      'plain http',
      { url: 'http://hooks.example.com/x' },
      'input.url',
      'plain http only for hosts in WEBHOOK_ALLOW_HOSTS',
    ],
    ['credentials', { url: 'https://me:pw@hooks.example.com/x' }, 'input.url', 'must not carry a user name'],
    ['a fragment', { url: 'https://hooks.example.com/x#top' }, 'input.url', 'must not have a #fragment'],
    ['a private address', { url: 'https://10.1.2.3/hooks' }, 'input.url', '10.1.2.3 is a private'],
    ['a loopback address', { url: 'https://127.0.0.53:8443/' }, 'input.url', 'must reach a public address'],
    ['IPv6 loopback', { url: 'https://[::1]/hooks' }, 'input.url', 'must reach a public address'],
    [
      'the metadata address',
      { url: 'https://169.254.169.254/latest' },
      'input.url',
      'must reach a public address',
    ],
    [
      'an IPv4-mapped private address',
      { url: 'https://[::ffff:192.168.1.1]/' },
      'input.url',
      'public address',
    ],
    ['this machine by name', { url: 'https://localhost/hooks' }, 'input.url', 'localhost is this machine'],
    [
      'this machine by name, with a trailing dot',
      { url: 'https://localhost./hooks' },
      'input.url',
      'localhost is this machine',
    ],
    [
      'a name under localhost, with a trailing dot',
      { url: 'https://foo.localhost./' },
      'input.url',
      'foo.localhost is this machine',
    ],
    [
      'a name under localhost, in capitals with a trailing dot',
      { url: 'https://Foo.LOCALHOST./' },
      'input.url',
      'foo.localhost is this machine',
    ],
    ['port 0', { url: 'https://hooks.example.com:0/x' }, 'input.url', 'must not use port 0'],
    ['port 0 written 000', { url: 'https://hooks.example.com:000/x' }, 'input.url', 'must not use port 0'],
    ['an empty label', { url: 'https://hooks..example.com/x' }, 'input.url', 'must name a host'],
    ['two trailing dots', { url: 'https://localhost../x' }, 'input.url', 'must name a host'],
    [
      'an unknown event type',
      { eventTypes: ['note.created', 'payment.failed'] },
      'input.eventTypes[1]',
      'is not an event type',
    ],
    ['no event type', { eventTypes: [] }, 'input.eventTypes', 'must name at least one of payment.succeeded'],
    [
      'too long a description',
      { description: 'd'.repeat(501) },
      'input.description',
      'at most 500 characters',
    ],
  ])(
    'refuses %s with BAD_USER_INPUT naming the field, writing nothing',
    async (_label, change, parameter, message) => {
      const before = await endpointCount();
      const res = await create({
        url: 'https://hooks.example.com/x',
        eventTypes: ['note.created'],
        ...change,
      });
      expect(res.data).toBeNull();
      const error = errorOf(res);
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorCode: 4, parameter });
      expect(error.message).toContain(message);
      expect(await endpointCount()).toBe(before);
    },
  );

  it('takes plain http and private addresses for hosts in WEBHOOK_ALLOW_HOSTS only', async () => {
    expect(
      (await create({ url: 'http://127.0.0.1:9/hooks', eventTypes: ['note.created'] })).errors,
    ).toBeUndefined();
    expect(
      (await create({ url: 'http://hooks.internal/x', eventTypes: ['esign.sent'] })).errors,
    ).toBeUndefined();
    expect(
      errorOf(await create({ url: 'http://127.0.0.2/hooks', eventTypes: ['note.created'] })).extensions,
    ).toMatchObject({
      parameter: 'input.url',
    });
  });

  it('knows an allowed host however it is written: capitals, one trailing dot', async () => {
    const res = await create({ url: 'http://HOOKS.internal./x', eventTypes: ['note.created'] });
    expect(res.errors).toBeUndefined();
    expect(res.data?.createWebhookEndpoint.endpoint.url).toBe('http://hooks.internal./x');
  });

  it('checks the host again at send time, written as the check knows it', async () => {
    const asked: string[] = [];
    const resolver: HostResolver = {
      addresses: async (host) => {
        asked.push(host);
        return host === 'hooks.test' ? ['127.0.0.1'] : [];
      },
    };
    const transport = new HttpWebhookTransport({
      timeoutMs: 60_000,
      maxResponseBytes: 1024,
      allowHosts: ['hooks.test'],
      resolver,
    });
    closers.push(() => transport.close());
    const hooks = await startReceiver();
    closers.push(() => hooks.close());
    const port = new URL(hooks.url).port;
    const post = (url: string) => transport.post({ url, headers: {}, body: '{}' });

    // Stored before registration knew better, or written into the database: refused all the same.
    await expect(post('https://foo.localhost./x')).rejects.toThrow('refused: foo.localhost is this machine');
    await expect(post('https://LOCALHOST./x')).rejects.toThrow('refused: localhost is this machine');
    await expect(post('https://hooks.example.test:0/x')).rejects.toThrow(
      'refused: the URL must not use port 0',
    );
    expect(asked).toEqual([]);
    // An allowed host with a trailing dot is that host.
    expect(await post(`http://hooks.test.:${port}/x`)).toMatchObject({ status: 204 });
    expect(asked).toEqual(['hooks.test']);
    expect(hooks.received).toHaveLength(1);
  });

  it('refuses a host name that resolves to a private address (checked when registering)', async () => {
    const resolver: HostResolver = {
      addresses: async (host) =>
        host === 'intranet.example.test' ? ['93.184.216.34', '10.0.0.7'] : ['93.184.216.34'],
    };
    const service = new WebhooksService(t.services.webhookEndpoints, resolver, t.clock, t.services.outbox, {
      eventTypes: WEBHOOK_EVENT_TYPES,
      allowHosts: [],
    });
    await expect(
      service.createEndpoint(t.world.company.id, {
        url: 'https://intranet.example.test/x',
        eventTypes: ['note.created'],
      }),
    ).rejects.toMatchObject({
      kind: 'invalid_parameter',
      problems: [expect.objectContaining({ path: ['url'] })],
      message: expect.stringContaining('intranet.example.test resolves to 10.0.0.7'),
    });
    expect(await endpointCount()).toBe(0);
    const taken = await service.createEndpoint(t.world.company.id, {
      url: 'https://public.example.test/x',
      eventTypes: ['note.created'],
    });
    expect(taken.endpoint.url).toBe('https://public.example.test/x');
  });

  it('keeps every webhook field and mutation out of the gateway schema', () => {
    const gateway = readFileSync(path.join(__dirname, '../../../schema.gateway.graphql'), 'utf8');
    expect(gateway).not.toMatch(/webhook/i);
    const own = readFileSync(path.join(__dirname, '../../../schema.graphql'), 'utf8');
    expect(own).toContain('createWebhookEndpoint(companyId: UUID!, input: CreateWebhookEndpointInput!)');
  });
});
