import { HttpWebhookTransport } from '../../../src/adapters/webhooks/http-webhook.transport';
import { loadConfig } from '../../../src/config';
import type { Caller } from '../../../src/kernel/caller';
import type { Facility } from '../../../src/areas/facilities/facilities.types';
import { createOutboxWorker, startOutboxWorker } from '../../../src/outbox.runtime';
import type { DatasetEvent, DatasetUnit } from '../../../src/store/dataset/dataset.types';
import { SqlOutboxRepository, type OutboxMessageRow } from '../../../src/areas/outbox/outbox.repository';
import { domainEventBus } from '../../../src/modules';
import {
  buildClient,
  buildCompany,
  buildDocument,
  buildEvent,
  buildFacility,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { startReceiver, type ReceiverAnswer, type TestReceiver } from '../../support/webhook-receiver';
import { startSmtpServer } from '../../support/outbox-servers';

const LEASE_MS = 300_000;

/**
 * Webhooks to loopback allowed, and a deadline (two minutes) far beyond the waits of these tests:
 * an endpoint that never answers holds its attempt for the whole test, as one that sleeps would.
 * Stopping waits 100 ms for the attempts in flight before it aborts them.
 */
const ENV = {
  NODE_ENV: 'test',
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '120000',
  OUTBOX_SEND_TIMEOUT_MS: '60000',
  OUTBOX_LEASE_MS: String(LEASE_MS),
  OUTBOX_STOP_GRACE_MS: '100',
};

/** One claim of due webhook deliveries at `at` (ms), leased for LEASE_MS, at most 10, under `caps`. */
function claimWebhooks(
  repository: SqlOutboxRepository,
  workerId: string,
  at: number,
  caps: { perRecipient: number; perCompany?: number },
): ReturnType<SqlOutboxRepository['claimDue']> {
  return repository.claimDue({
    workerId,
    now: new Date(at).toISOString(),
    leaseUntil: new Date(at + LEASE_MS).toISOString(),
    channels: ['webhook'],
    limit: 10,
    ...caps,
  });
}

/** Polls until `done` holds; gives up after a minute (generous on a busy machine). */
async function eventually(what: string, done: () => Promise<boolean> | boolean): Promise<void> {
  const giveUpAt = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > giveUpAt) throw new Error(`not within a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeEachDialect('outbox isolation', (dialect) => {
  let t: TestApp;
  let facilityA: Facility;
  let facilityB: Facility;
  let callerA: Caller;
  let callerB: Caller;
  let unitA: DatasetUnit;
  let unitB: DatasetUnit;
  let moveIn: DatasetEvent;
  /** Two more companies (C, D) beside A (the world's company) and B (its other one). */
  const more: Array<{ caller: Caller; facility: Facility; unit: DatasetUnit }> = [];
  const closers: Array<() => Promise<unknown> | unknown> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    const { world } = t;
    unitA = buildUnit({ facility_id: world.facility.id, name: 'A-1' });
    unitB = buildUnit({ facility_id: world.otherFacility.id, name: 'B-1' });
    moveIn = buildEvent({ facility_id: world.facility.id });
    await t.load({
      units: [unitA, unitB],
      events: [moveIn],
      event_documents: [buildDocument({ event_id: moveIn.id, description: 'Lease agreement' })],
    });
    callerA = { clientId: world.client.id, companyId: world.company.id, name: 'A desk' };
    callerB = { clientId: world.otherClient.id, companyId: world.otherCompany.id, name: 'B desk' };
    facilityA = await t.services.facilities.facilityFor(callerA, world.facility.id);
    facilityB = await t.services.facilities.facilityFor(callerB, world.otherFacility.id);
    for (const name of ['C', 'D']) {
      const company = buildCompany({ name: `${name} Storage` });
      const facility = buildFacility({ company_id: company.id, name: `${name} Street` });
      const client = buildClient({ company_id: company.id, name: `${name} desk` });
      const unit = buildUnit({ facility_id: facility.id, name: `${name}-1` });
      await t.load({
        companies: [company],
        facilities: [facility],
        client_applications: [client],
        units: [unit],
      });
      const caller: Caller = { clientId: client.id, companyId: company.id, name: `${name} desk` };
      more.push({ caller, unit, facility: await t.services.facilities.facilityFor(caller, facility.id) });
    }
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.store.db.deleteFrom('outbox_messages').execute();
    await t.db.store.db.deleteFrom('webhook_endpoints').execute();
  });
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  /** A receiver registered as an endpoint of the company for note.created; closed after the test. */
  async function endpoint(
    companyId: string,
    answer: () => ReceiverAnswer,
  ): Promise<{ id: string; hooks: TestReceiver }> {
    const hooks = await startReceiver(answer);
    closers.push(() => hooks.close());
    const { endpoint: made } = await t.services.webhooks.createEndpoint(companyId, {
      url: hooks.url,
      eventTypes: ['note.created'],
    });
    return { id: made.id, hooks };
  }

  /** Ten endpoints of company B that take the request and never answer (until the test ends). */
  const hangingEndpointsOfB = () =>
    Promise.all(Array.from({ length: 10 }, () => endpoint(t.world.otherCompany.id, () => 'hold')));

  const noteOfA = () => t.services.notes.createNote(facilityA, callerA, { noteText: 'A', unitId: unitA.id });
  const noteOfB = () => t.services.notes.createNote(facilityB, callerB, { noteText: 'B', unitId: unitB.id });

  const deliveriesTo = (endpointId: string): Promise<OutboxMessageRow[]> =>
    t.db.store.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('channel', '=', 'webhook')
      .where('recipient', '=', endpointId)
      .execute();

  it("delivers company A's webhook and an e-sign email while B's ten endpoints hang, two attempts each at most; stop() still ends", async () => {
    const smtp = await startSmtpServer();
    closers.push(() => smtp.close());
    const b = await hangingEndpointsOfB();
    const a = await endpoint(t.world.company.id, () => ({ status: 204 }));
    // Three events of B (30 deliveries, older than anything of A's), then the worker starts.
    for (let i = 0; i < 3; i += 1) await noteOfB();
    // The endpoint cap alone: B's company cap (16 by default) above its ten endpoints' twenty.
    const running = startOutboxWorker(
      t.services,
      loadConfig({ ...ENV, SMTP_URL: smtp.url, WEBHOOK_COMPANY_CONCURRENCY: '20' }),
    );
    expect(running).not.toBeNull();
    let stopped = false;
    closers.push(() => (stopped ? undefined : running!.stop()));
    await eventually(
      'B has ten requests open',
      () => b.reduce((open, endpointOfB) => open + endpointOfB.hooks.received.length, 0) >= 10,
    );

    // While they hang: a note of company A (newer than B's) and an e-sign email of its facility.
    t.clock.advance(1000);
    await noteOfA();
    await t.services.esign.sendEsignableDocuments(facilityA, {
      eventId: moveIn.id,
      email: 'ada@example.com',
    });
    await eventually("A's webhook and the email are delivered", async () => {
      const [delivery] = await deliveriesTo(a.id);
      return delivery?.status === 'sent' && smtp.received.length === 1;
    });
    expect(a.hooks.received).toHaveLength(1);
    expect(smtp.received.map((email) => email.to)).toEqual([['ada@example.com']]);

    // B's endpoints hold two attempts each, all still open; their third delivery waits its turn.
    for (const endpointOfB of b) {
      const rows = await deliveriesTo(endpointOfB.id);
      const sending = rows.filter((row) => row.status === 'sending');
      await eventually(
        'the requests claimed for B have arrived',
        () => endpointOfB.hooks.received.length >= sending.length,
      );
      expect(sending).toHaveLength(2);
      expect(endpointOfB.hooks.received).toHaveLength(2);
      expect(rows.filter((row) => row.status === 'pending')).toHaveLength(1);
    }

    // Shutdown ends although B never answers: its attempts are cut and due again for another worker,
    // and B's endpoints are not counted as failing for it.
    stopped = true;
    await running!.stop();
    for (const endpointOfB of b) {
      const rows = await deliveriesTo(endpointOfB.id);
      expect(rows.map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);
      expect(
        rows.filter((row) => row.last_error === 'the delivery worker stopped during the attempt'),
      ).toHaveLength(2);
      expect(await t.services.webhooks.endpointFor('operator', endpointOfB.id)).toMatchObject({
        failingSince: null,
      });
    }
  });

  it('keeps the cap of one endpoint across workers sharing the database', async () => {
    const slow = await endpoint(t.world.otherCompany.id, () => 'hold');
    const a = await endpoint(t.world.company.id, () => ({ status: 204 }));
    for (let i = 0; i < 5; i += 1) await noteOfB();
    t.clock.advance(1000);
    await noteOfA();
    const config = loadConfig(ENV);
    for (const id of ['w1', 'w2', 'w3']) {
      const worker = createOutboxWorker(t.services, config, { id });
      closers.push(() => worker.stop());
      worker.start();
    }
    // A's delivery is the newest: once it is sent, every worker has had B's five before it.
    await eventually(
      "A's webhook is delivered",
      async () => (await deliveriesTo(a.id))[0]?.status === 'sent',
    );
    const rows = await deliveriesTo(slow.id);
    const sending = rows.filter((row) => row.status === 'sending');
    await eventually(
      'the requests claimed for B have arrived',
      () => slow.hooks.received.length >= sending.length,
    );
    expect(sending).toHaveLength(2);
    expect(slow.hooks.received).toHaveLength(2);
    expect(rows.filter((row) => row.status === 'pending')).toHaveLength(3);
  });

  it("delivers company A's webhook while B, C and D hang on more endpoints than the lane has slots, each company at its cap across workers", async () => {
    // Per worker: ten webhook attempts, two per endpoint, three per company. B, C and D have four
    // hanging endpoints each: eight attempts each under the endpoint cap alone, 24 in all, more
    // than both workers' 20 slots, which they would take before A's newer delivery.
    const config = loadConfig({
      ...ENV,
      WEBHOOK_CONCURRENCY: '10',
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      WEBHOOK_COMPANY_CONCURRENCY: '3',
    });
    expect(config.webhooks).toMatchObject({ concurrency: 10, endpointConcurrency: 2, companyConcurrency: 3 });
    const companies = [
      { companyId: t.world.otherCompany.id, note: noteOfB },
      ...more.map(({ caller, facility, unit }) => ({
        companyId: caller.companyId,
        note: () => t.services.notes.createNote(facility, caller, { noteText: 'hang', unitId: unit.id }),
      })),
    ];
    const hanging = await Promise.all(
      companies.map(async ({ companyId, note }) => {
        const endpoints = await Promise.all(
          Array.from({ length: 4 }, () => endpoint(companyId, () => 'hold')),
        );
        // Two events: eight deliveries of the company, older than A's.
        for (let i = 0; i < 2; i += 1) await note();
        return { companyId, endpoints };
      }),
    );
    const a = await endpoint(t.world.company.id, () => ({ status: 204 }));
    for (const id of ['w1', 'w2']) {
      const worker = createOutboxWorker(t.services, config, { id });
      closers.push(() => worker.stop());
      worker.start();
    }
    const requestsOf = (company: (typeof hanging)[number]) =>
      company.endpoints.reduce((open, hooks) => open + hooks.hooks.received.length, 0);
    // Receivers hold every request to the end: what a company ever had in flight is what it received.
    const withinCaps = () => {
      for (const company of hanging) expect(requestsOf(company)).toBeLessThanOrEqual(3);
      return true;
    };
    await eventually(
      'B, C and D have three requests open each',
      () => withinCaps() && hanging.every((company) => requestsOf(company) >= 3),
    );

    t.clock.advance(1000);
    await noteOfA();
    await eventually(
      "A's webhook is delivered",
      async () => withinCaps() && (await deliveriesTo(a.id))[0]?.status === 'sent',
    );
    expect(a.hooks.received).toHaveLength(1);

    for (const company of hanging) {
      const rows = (await Promise.all(company.endpoints.map((hooks) => deliveriesTo(hooks.id)))).flat();
      const sending = rows.filter((row) => row.status === 'sending');
      await eventually(
        'the requests claimed for the company have arrived',
        () => requestsOf(company) >= sending.length,
      );
      expect(sending).toHaveLength(3);
      expect(requestsOf(company)).toBe(3);
      expect(rows.filter((row) => row.status === 'pending')).toHaveLength(5);
      // Its three are spread by age over its endpoints, never more than two on one.
      for (const hooks of company.endpoints) expect(hooks.hooks.received.length).toBeLessThanOrEqual(2);
    }
  });

  it('keeps the company cap when workers claim at the same moment', async () => {
    const endpoints = await Promise.all(
      Array.from({ length: 4 }, () => endpoint(t.world.otherCompany.id, () => 'hold')),
    );
    for (let i = 0; i < 2; i += 1) await noteOfB();
    const repository = new SqlOutboxRepository(t.db.store.db, domainEventBus());
    const now = t.clock.now().getTime();
    const caps = { perRecipient: 2, perCompany: 3 };
    const claim = (workerId: string) => claimWebhooks(repository, workerId, now, caps);
    const claims = await Promise.all(['w1', 'w2', 'w3', 'w4'].map(claim));
    expect(claims.flat()).toHaveLength(3);
    expect(await claim('w5')).toEqual([]);
    // The endpoint cap still holds inside the company's three.
    const perEndpoint = new Map<string, number>();
    for (const message of claims.flat()) {
      perEndpoint.set(message.recipient, (perEndpoint.get(message.recipient) ?? 0) + 1);
    }
    expect(Math.max(...perEndpoint.values())).toBeLessThanOrEqual(2);
    expect(endpoints.map((made) => made.id)).toEqual(expect.arrayContaining([...perEndpoint.keys()]));
    // After the lease, the company's three in flight no longer count.
    const reclaimed = await claimWebhooks(repository, 'w6', now + LEASE_MS, caps);
    expect(reclaimed).toHaveLength(3);
  });

  it("claims a dead worker's deliveries again after its lease, never more than the cap at once", async () => {
    const slow = await endpoint(t.world.otherCompany.id, () => 'hold');
    for (let i = 0; i < 3; i += 1) await noteOfB();
    const repository = new SqlOutboxRepository(t.db.store.db, domainEventBus());
    const claim = (workerId: string) =>
      claimWebhooks(repository, workerId, t.clock.now().getTime(), { perRecipient: 2 });
    // The ghost claims two and dies; nobody gets a third while its lease runs.
    expect((await claim('ghost')).map((message) => message.recipient)).toEqual([slow.id, slow.id]);
    expect(await claim('w1')).toEqual([]);
    t.clock.advance(LEASE_MS - 1);
    expect(await claim('w1')).toEqual([]);
    // After it, the ghost's two are due again and go to the next worker, still two at once.
    t.clock.advance(1);
    const reclaimed = await claim('w1');
    expect(reclaimed.map((message) => [message.claimedBy, message.attempts])).toEqual([
      ['w1', 2],
      ['w1', 2],
    ]);
    expect(await claim('w2')).toEqual([]);
    expect((await deliveriesTo(slow.id)).filter((row) => row.status === 'pending')).toHaveLength(1);
  });
});

describe('webhook transport deadline', () => {
  it('counts resolving the name against the one deadline of an attempt', async () => {
    const transport = new HttpWebhookTransport({
      timeoutMs: 200,
      maxResponseBytes: 1024,
      allowHosts: [],
      // A name server that never answers.
      resolver: { addresses: () => new Promise<string[]>(() => undefined) },
    });
    await expect(
      transport.post({ url: 'https://hooks.example.test/hooks', headers: {}, body: '{}' }),
    ).rejects.toThrow('no answer within 200 ms');
  });

  it('ends a request the receiver holds as soon as the worker aborts it', async () => {
    const hooks = await startReceiver(() => 'hold');
    try {
      const transport = new HttpWebhookTransport({
        timeoutMs: 120_000,
        maxResponseBytes: 1024,
        allowHosts: ['127.0.0.1'],
      });
      const stopping = new AbortController();
      const attempt = transport.post({ url: hooks.url, headers: {}, body: '{}', signal: stopping.signal });
      await hooks.waitFor(1);
      stopping.abort();
      await expect(attempt).rejects.toThrow('the delivery worker stopped');
    } finally {
      await hooks.close();
    }
  });
});
