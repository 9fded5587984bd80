import { loadConfig, type Config } from '../../../src/config';
import type { Caller } from '../../../src/kernel/caller';
import type { Facility } from '../../../src/areas/facilities/facilities.types';
import {
  outboxSettingsFrom,
  outboxTransportsFrom,
  pdfAttachments,
  startOutboxWorker,
} from '../../../src/outbox.runtime';
import { OutboxWorker } from '../../../src/areas/outbox/outbox.worker';
import { domainEventBus } from '../../../src/modules';
import type { DatasetEvent } from '../../../src/store/dataset/dataset.types';
import {
  SqlOutboxRepository as OutboxRepository,
  type OutboxMessageRow,
} from '../../../src/areas/outbox/outbox.repository';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import {
  startSilentServer,
  startSmsProvider,
  startSmtpServer,
  type ReceivedSms,
} from '../../support/outbox-servers';

const SECOND = 1000;

/** Undoes the quoted-printable line wrapping and escapes of a text part. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
const BACKOFF = 10 * SECOND;
const LEASE = 200 * SECOND;

/**
 * The outbox settings of these tests: three attempts, 10 s then 20 s backoff. A send to a server
 * that answers gets a minute, so a busy machine never turns it into a timeout; only the timeout
 * tests use 300 ms, against servers that never answer.
 */
const config: Config = loadConfig({
  NODE_ENV: 'test',
  SMTP_FROM: 'Main Street Storage <desk@main-street.example>',
  OUTBOX_SEND_TIMEOUT_MS: '60000',
  OUTBOX_LEASE_MS: String(LEASE),
  OUTBOX_BACKOFF_MS: String(BACKOFF),
  OUTBOX_BACKOFF_MAX_MS: String(6 * BACKOFF),
  OUTBOX_MAX_ATTEMPTS: '3',
  OUTBOX_BATCH_SIZE: '10',
});

describeEachDialect('outbox delivery worker', (dialect) => {
  let t: TestApp;
  let facility: Facility;
  let moveIn: DatasetEvent;
  const leaseId = '22222222-0000-4000-8000-000000000001';
  const addendumId = '22222222-0000-4000-8000-000000000002';
  const closers: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facilityId, name: 'B-207' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    moveIn = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [moveIn],
      event_documents: [
        buildDocument({
          id: leaseId,
          event_id: moveIn.id,
          description: 'Lease agreement',
          created_at: '2026-11-20T15:00:00Z',
        }),
        buildDocument({
          id: addendumId,
          event_id: moveIn.id,
          description: 'Gate code addendum',
          created_at: '2026-11-20T15:30:00Z',
        }),
      ],
    });
    const caller: Caller = { clientId: t.world.client.id, companyId: t.world.company.id, name: 'desk' };
    facility = await t.services.facilities.facilityFor(caller, facilityId);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.store.db.deleteFrom('outbox_messages').execute();
  });
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  const queue = async (recipient: { email?: string; sms_number?: string }): Promise<string> => {
    const [message] = await t.services.esign.sendEsignableDocuments(facility, {
      eventId: moveIn.id,
      email: recipient.email,
      smsNumber: recipient.sms_number,
    });
    return message.id;
  };

  const row = (id: string): Promise<OutboxMessageRow> =>
    t.db.store.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const rows = (): Promise<OutboxMessageRow[]> =>
    t.db.store.db.selectFrom('outbox_messages').selectAll().orderBy('created_at').orderBy('id').execute();

  function worker(
    id: string,
    targets: { smtp?: string; sms?: string },
    repository = new OutboxRepository(t.db.store.db, domainEventBus()),
    sendTimeoutMs = config.outbox.sendTimeoutMs,
  ): OutboxWorker {
    const transports = outboxTransportsFrom({
      ...config.outbox,
      sendTimeoutMs,
      smtpUrl: targets.smtp ?? null,
      smsWebhookUrl: targets.sms ?? null,
    });
    closers.push(() => {
      transports.email?.close();
      transports.sms?.close();
    });
    return new OutboxWorker(repository, t.clock, transports, outboxSettingsFrom(config.outbox), {
      id,
      attachments: pdfAttachments(t.services),
    });
  }

  async function smtpServer(behaviour: Parameters<typeof startSmtpServer>[0] = {}) {
    const server = await startSmtpServer(behaviour);
    closers.push(() => server.close());
    return server;
  }

  async function smsProvider(answer?: Parameters<typeof startSmsProvider>[0]) {
    const provider = await startSmsProvider(answer);
    closers.push(() => provider.close());
    return provider;
  }

  const now = () => t.clock.now().toISOString();
  const messageIdOf = (id: string) => `<${id}.outbox@main-street.example>`;

  it('sends an email over SMTP with a stable Message-ID, the links, and the documents as PDFs', async () => {
    const smtp = await smtpServer();
    const id = await queue({ email: 'grace@example.com' });
    const result = await worker('w1', { smtp: smtp.url }).runOnce();
    expect(result).toEqual({ claimed: 1, sent: 1, retrying: 0, failed: 0, unrecorded: 0 });

    expect(smtp.received).toHaveLength(1);
    const [email] = smtp.received;
    expect(email.from).toBe('desk@main-street.example');
    expect(email.to).toEqual(['grace@example.com']);
    expect(email.headers['message-id']).toBe(messageIdOf(id));
    expect(email.headers.subject).toBe('Documents to sign from Main Street');
    expect(email.headers.from).toBe('Main Street Storage <desk@main-street.example>');
    const text = decodeQuotedPrintable(email.raw);
    expect(text).toContain('- Lease agreement\r\n- Gate code addendum\r\n');
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:3000\/sign\/[A-Za-z0-9_-]{43}/);
    // Both documents ride along as real PDFs (base64 of "%PDF-").
    const pdfParts = email.raw.match(/Content-Type: application\/pdf; name=[^\r\n]+/g) ?? [];
    expect(pdfParts).toHaveLength(2);
    expect(email.raw.match(/\r\n\r\nJVBERi0/g) ?? []).toHaveLength(2);

    expect(await row(id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      sent_at: now(),
      last_error: null,
      claimed_by: null,
      claimed_until: null,
    });
    // Nothing is left to do.
    expect((await worker('w2', { smtp: smtp.url }).runOnce()).claimed).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('sends a text message as a JSON POST with the message id as idempotency key', async () => {
    const provider = await smsProvider();
    const id = await queue({ sms_number: '555 555 0100' });
    const result = await worker('w1', { sms: provider.url }).runOnce();
    expect(result).toMatchObject({ claimed: 1, sent: 1 });
    expect(provider.received).toHaveLength(1);
    const [request] = provider.received;
    expect(request.headers['idempotency-key']).toBe(id);
    expect(request.headers['content-type']).toBe('application/json');
    const base = `http://127.0.0.1:3000/v1/${facility.id}/documents`;
    expect(request.body).toEqual({
      id,
      to: '+15555550100',
      text: expect.stringMatching(
        /^Main Street: please review and sign 2 documents\. http:\/\/127\.0\.0\.1:3000\/s\/[A-Za-z0-9_-]{43}$/,
      ),
      documents: [
        { id: leaseId, description: 'Lease agreement', url: `${base}/${leaseId}` },
        { id: addendumId, description: 'Gate code addendum', url: `${base}/${addendumId}` },
      ],
    });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, sent_at: now() });
  });

  it('retries a provider that fails twice with exponential backoff, then records the delivery', async () => {
    const provider = await smsProvider((n) =>
      n < 2 ? { status: 503, body: 'busy, try later' } : { status: 200 },
    );
    const id = await queue({ sms_number: '+15555550100' });
    const w = worker('w1', { sms: provider.url });

    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const start = t.clock.now().getTime();
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'SMS provider answered 503: busy, try later',
      next_attempt_at: new Date(start + BACKOFF).toISOString(),
      claimed_by: null,
    });
    // Not due before its time.
    t.clock.advance(BACKOFF - 1);
    expect((await w.runOnce()).claimed).toBe(0);

    t.clock.advance(1);
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 2,
      next_attempt_at: new Date(t.clock.now().getTime() + 2 * BACKOFF).toISOString(),
    });

    t.clock.advance(2 * BACKOFF);
    expect(await w.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3, last_error: null, sent_at: now() });
    expect(provider.received.map((r) => r.headers['idempotency-key'])).toEqual([id, id, id]);
  });

  it('gives a hanging provider a timeout, not a stuck worker, and retries', async () => {
    const provider = await smsProvider((n) => (n === 0 ? 'hang' : { status: 201 }));
    const id = await queue({ sms_number: '+15555550100' });
    const w = worker('w1', { sms: provider.url }, undefined, 300);
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'SMS provider did not answer within 300 ms',
    });
    // The provider answers now: a worker with the usual timeout sends it (300 ms could pass on a busy machine).
    t.clock.advance(BACKOFF);
    expect(await worker('w2', { sms: provider.url }).runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('retries an SMTP server that refuses the recipient, then marks the message failed', async () => {
    const smtp = await smtpServer({ refuseRecipients: 550 });
    const id = await queue({ email: 'nobody@example.com' });
    const w = worker('w1', { smtp: smtp.url });

    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect((await row(id)).last_error).toContain('550');
    t.clock.advance(BACKOFF);
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    t.clock.advance(2 * BACKOFF);
    expect(await w.runOnce()).toMatchObject({ claimed: 1, failed: 1 });

    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, sent_at: null, claimed_by: null });
    expect(failed.last_error).toContain('550');
    expect(failed.last_error).toContain('No such user here');
    // Failed is final.
    t.clock.advance(24 * 3600 * SECOND);
    expect((await w.runOnce()).claimed).toBe(0);
    expect(smtp.recipientsTried).toEqual(['nobody@example.com', 'nobody@example.com', 'nobody@example.com']);
    expect(smtp.received).toEqual([]);
  });

  it('times out an SMTP server that never greets, and one that never answers the data', async () => {
    const silent = await startSilentServer();
    closers.push(() => silent.close());
    const id = await queue({ email: 'grace@example.com' });
    expect(await worker('w1', { smtp: silent.url }, undefined, 300).runOnce()).toMatchObject({
      claimed: 1,
      retrying: 1,
    });
    expect(silent.connections).toBe(1);
    const first = await row(id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    // Nodemailer's own timeout, or the whole send's deadline when a busy machine lets it pass first.
    expect(first.last_error).toMatch(/greeting|timeout|timed out|did not finish within/i);

    const hanging = await smtpServer({ hangAfterData: true });
    t.clock.advance(BACKOFF);
    expect(await worker('w2', { smtp: hanging.url }, undefined, 300).runOnce()).toMatchObject({
      claimed: 1,
      retrying: 1,
    });
    const second = await row(id);
    expect(second).toMatchObject({ status: 'pending', attempts: 2 });
    expect(second.last_error).toMatch(/timeout|timed out|did not finish within/i);

    // A working server later gets it out.
    const smtp = await smtpServer();
    t.clock.advance(2 * BACKOFF);
    expect(await worker('w3', { smtp: smtp.url }).runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(smtp.received.map((e) => e.headers['message-id'])).toEqual([messageIdOf(id)]);
  });

  it('leaves messages pending while no transport for their channel is configured', async () => {
    const email = await queue({ email: 'grace@example.com' });
    const sms = await queue({ sms_number: '+15555550100' });
    expect(await worker('none', {}).runOnce()).toMatchObject({ claimed: 0 });
    const provider = await smsProvider();
    expect(await worker('sms-only', { sms: provider.url }).runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(email)).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null });
    expect(await row(sms)).toMatchObject({ status: 'sent' });
  });

  it('loses nothing when a worker dies after sending and before recording: the repeat has the same ids', async () => {
    const smtp = await smtpServer();
    const provider = await smsProvider();
    const ids = [
      await queue({ email: 'one@example.com' }),
      await queue({ sms_number: '+15555550101' }),
      await queue({ email: 'three@example.com' }),
    ];
    /** The process "dies" as it goes to record its first delivery: nothing after it is written. */
    class DiesBeforeRecording extends OutboxRepository {
      override async markSent(): Promise<void> {
        throw new Error('process killed');
      }
    }
    const a = worker(
      'worker-a',
      { smtp: smtp.url, sms: provider.url },
      new DiesBeforeRecording(t.db.store.db, domainEventBus()),
    );
    expect(await a.runOnce()).toMatchObject({ claimed: 3, sent: 0, unrecorded: 3 });
    expect((await rows()).map((r) => [r.status, r.claimed_by])).toEqual([
      ['sending', 'worker-a'],
      ['sending', 'worker-a'],
      ['sending', 'worker-a'],
    ]);

    // Worker B (after a restart) leaves them alone while A's lease runs, then sends them all.
    const b = worker('worker-b', { smtp: smtp.url, sms: provider.url });
    t.clock.advance(LEASE - 1);
    expect((await b.runOnce()).claimed).toBe(0);
    t.clock.advance(1);
    expect(await b.runOnce()).toMatchObject({ claimed: 3, sent: 3 });
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
      ['sent', 2],
    ]);

    // Each went twice, with the same Message-ID or idempotency key both times.
    const messageIds = smtp.received.map((e) => e.headers['message-id']);
    expect(messageIds.sort()).toEqual(
      [messageIdOf(ids[0]), messageIdOf(ids[0]), messageIdOf(ids[2]), messageIdOf(ids[2])].sort(),
    );
    expect(provider.received.map((r: ReceivedSms) => r.headers['idempotency-key'])).toEqual([ids[1], ids[1]]);
  });

  it('sends the rest after a worker is stopped part-way, each message once', async () => {
    const smtp = await smtpServer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await queue({ email: `tenant${i}@example.com` }));
    const small = new OutboxWorker(
      new OutboxRepository(t.db.store.db, domainEventBus()),
      t.clock,
      outboxTransportsFrom({ ...config.outbox, smtpUrl: smtp.url }),
      { ...outboxSettingsFrom(config.outbox), batchSize: 2 },
      { id: 'worker-a' },
    );
    expect(await small.runOnce()).toMatchObject({ claimed: 2, sent: 2 });
    await small.stop();

    expect(await worker('worker-b', { smtp: smtp.url }).runOnce()).toMatchObject({ claimed: 3, sent: 3 });
    expect(smtp.received.map((e) => e.headers['message-id']).sort()).toEqual(ids.map(messageIdOf).sort());
    expect((await rows()).every((r) => r.status === 'sent')).toBe(true);
  });

  it('picks up a message whose worker died holding its claim once the lease runs out', async () => {
    const smtp = await smtpServer();
    const id = await queue({ email: 'grace@example.com' });
    const start = t.clock.now().getTime();
    const claimed = await new OutboxRepository(t.db.store.db, domainEventBus()).claimDue({
      workerId: 'ghost',
      now: new Date(start).toISOString(),
      leaseUntil: new Date(start + LEASE).toISOString(),
      channels: ['email'],
      limit: 10,
    });
    expect(claimed.map((r) => r.id)).toEqual([id]);

    const b = worker('worker-b', { smtp: smtp.url });
    t.clock.advance(LEASE - 1);
    expect((await b.runOnce()).claimed).toBe(0);
    t.clock.advance(1);
    expect(await b.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.received).toHaveLength(1);
  });

  it('lets workers run side by side: each message is claimed and sent by exactly one', async () => {
    const smtp = await smtpServer();
    const ids: string[] = [];
    for (let i = 0; i < 24; i += 1) ids.push(await queue({ email: `tenant${i}@example.com` }));
    const workers = ['a', 'b', 'c'].map((id) => worker(id, { smtp: smtp.url }));
    const claims = new Map<string, number>();
    for (let round = 0; round < 5; round += 1) {
      const results = await Promise.all(workers.map((w) => w.runOnce()));
      results.forEach((r, i) => claims.set(workers[i].id, (claims.get(workers[i].id) ?? 0) + r.claimed));
      if (results.every((r) => r.claimed === 0)) break;
    }
    expect([...claims.values()].reduce((a, b) => a + b, 0)).toBe(24);
    const sent = smtp.received.map((e) => e.headers['message-id']);
    expect(sent).toHaveLength(24);
    expect(new Set(sent)).toEqual(new Set(ids.map(messageIdOf)));
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('runs in the service process: a request queues, the started worker wakes and sends, stop() ends it', async () => {
    const smtp = await smtpServer();
    // A poll interval far beyond the test: only the wake-up on enqueue can get the email out.
    const running = startOutboxWorker(
      t.services,
      loadConfig({ NODE_ENV: 'test', SMTP_URL: smtp.url, OUTBOX_POLL_MS: '3600000' }),
    );
    expect(running).not.toBeNull();
    closers.push(() => running!.stop());
    const res = await t.postJson(`/v1/${facility.id}/documents/${moveIn.id}/send_esignable_documents`, {
      email: 'grace@example.com',
    });
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (await rows())[0]?.status === 'sent');
    expect(smtp.received.map((e) => e.to)).toEqual([['grace@example.com']]);
    await running!.stop();

    // Stopped: a new message stays pending.
    await queue({ email: 'later@example.com' });
    expect((await rows()).map((r) => [r.recipient, r.status]).sort()).toEqual([
      ['grace@example.com', 'sent'],
      ['later@example.com', 'pending'],
    ]);
  });

  it('starts no worker when OUTBOX_WORKER is off', () => {
    expect(
      startOutboxWorker(t.services, loadConfig({ NODE_ENV: 'test', OUTBOX_WORKER: 'false' })),
    ).toBeNull();
  });
});

/** Polls until `done` holds (60 s at most: generous on a busy machine). */
async function waitFor(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 3000; i += 1) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met within 60 s');
}
