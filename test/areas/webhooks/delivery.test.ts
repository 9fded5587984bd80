import { loadConfig, type Config } from '../../../src/config';
import type { Facility } from '../../../src/areas/facilities/facilities.types';
import type { OutboxWorker } from '../../../src/areas/outbox/outbox.worker';
import {
  WebhookDispatcher,
  WEBHOOK_RETRY_SCHEDULE_MS,
} from '../../../src/areas/webhooks/webhooks.dispatcher';
import type { HostResolver } from '../../../src/areas/webhooks/webhooks.ports';
import { WebhooksService } from '../../../src/areas/webhooks/webhooks.service';
import { WEBHOOK_EVENT_TYPES } from '../../../src/modules';
import { HttpWebhookTransport } from '../../../src/adapters/webhooks/http-webhook.transport';
import { createOutboxWorker, outboxTransportsFrom } from '../../../src/outbox.runtime';
import type { DatasetEvent, DatasetUnit } from '../../../src/store/dataset/dataset.types';
import type { OutboxMessageRow } from '../../../src/areas/outbox/outbox.repository';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { callerOf, goodForm, postForm, sendLink } from '../../support/signing';
import { startSmsProvider, startSmtpServer } from '../../support/outbox-servers';
import {
  creditCard,
  DECLINED_VISA,
  loadPaymentWorld,
  payment,
  VISA,
  type PaymentWorld,
} from '../../support/payments';
import {
  startReceiver,
  verifyDelivery,
  type ReceivedWebhook,
  type ReceiverAnswer,
} from '../../support/webhook-receiver';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

/**
 * The worker's settings here: webhooks to loopback allowed, a minute for an answer (a busy machine
 * never turns a slow answer into a timeout; the timeout test uses its own 300 ms transport).
 */
const ENV = {
  NODE_ENV: 'test',
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '60000',
  OUTBOX_SEND_TIMEOUT_MS: '60000',
  OUTBOX_LEASE_MS: '200000',
  OUTBOX_MAX_ATTEMPTS: '1',
};
const config: Config = loadConfig(ENV);

describeEachDialect('webhook delivery', (dialect) => {
  let t: TestApp;
  let facility: Facility;
  let moveIn: DatasetEvent;
  let unit: DatasetUnit;
  let pay: PaymentWorld;
  const closers: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    const facilityId = t.world.facility.id;
    const tenant = buildTenant({ facility_id: facilityId, first_name: 'Grace', last_name: 'Hopper' });
    unit = buildUnit({ facility_id: facilityId, name: 'B-207' });
    const ledger = buildLedger({ facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id });
    moveIn = buildEvent({ facility_id: facilityId, ledger_id: ledger.id });
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [moveIn],
      event_documents: [
        buildDocument({
          event_id: moveIn.id,
          description: 'Lease agreement',
          created_at: '2026-11-20T15:00:00Z',
        }),
        buildDocument({
          event_id: moveIn.id,
          description: 'Gate code addendum',
          created_at: '2026-11-20T15:30:00Z',
        }),
      ],
    });
    pay = await loadPaymentWorld(t);
    facility = await t.services.facilities.facilityFor(callerOf(t), facilityId);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.store.db.deleteFrom('outbox_messages').execute();
    await t.db.store.db.deleteFrom('webhook_endpoints').execute();
  });
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  async function receiver(answer?: (index: number, request: ReceivedWebhook) => ReceiverAnswer) {
    const started = await startReceiver(answer, () => t.clock.now().getTime());
    closers.push(() => started.close());
    return started;
  }

  const register = (url: string, eventTypes: readonly string[] = WEBHOOK_EVENT_TYPES) =>
    t.services.webhooks.createEndpoint(t.world.company.id, { url, eventTypes, description: 'test receiver' });

  function worker(id = 'w1', env: Record<string, string> = {}): OutboxWorker {
    const own = loadConfig({ ...ENV, ...env });
    const made = createOutboxWorker(t.services, own, { id });
    closers.push(() => made.stop());
    return made;
  }

  /** Runs the worker until a run claims nothing (each message once per run at most). */
  async function drain(w: OutboxWorker): Promise<void> {
    for (let run = 0; run < 50; run += 1) if ((await w.runOnce()).claimed === 0) return;
    throw new Error('the outbox did not drain');
  }

  const rows = (): Promise<OutboxMessageRow[]> =>
    t.db.store.db.selectFrom('outbox_messages').selectAll().orderBy('created_at').orderBy('id').execute();
  const webhookRows = async () => (await rows()).filter((r) => r.channel === 'webhook');
  const row = (id: string) =>
    t.db.store.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** webhook_deliveries_total by outcome, as /metrics answers now. */
  async function deliveryCounts(): Promise<Record<string, number>> {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const counts: Record<string, number> = {};
    for (const match of text.matchAll(/^webhook_deliveries_total\{outcome="(\w+)"\} (\d+)$/gm)) {
      counts[match[1]] = Number(match[2]);
    }
    return { sent: 0, retrying: 0, failed: 0, unrecorded: 0, ...counts };
  }

  const bodyOf = (delivery: ReceivedWebhook) =>
    JSON.parse(delivery.body) as { type: string; timestamp: string; data: Record<string, unknown> };

  it('delivers every event type, each signed so that standardwebhooks verifies it, data as REST shows it', async () => {
    const hooks = await receiver();
    const { secret } = await register(hooks.url);
    const f = facility.id;

    const note = await t.postJson(`/v1/${f}/notes`, {
      note: { note_text: 'Gate code changed', unit_id: unit.id },
    });
    expect(note.statusCode).toBe(200);
    const paid = await t.postJson(
      pay.url,
      payment([{ invoiceable_item_id: pay.retail.id, quantity: 1 }], creditCard()),
    );
    expect(paid.statusCode).toBe(200);
    const review = await t.postJson(`/v1/${f}/move_ins/review_cost`, { move_in: { unit_id: unit.id } });
    expect(review.statusCode).toBe(200);

    // One e-sign message is delivered by email and signed through its link; one text message fails.
    const smtp = await startSmtpServer();
    closers.push(() => smtp.close());
    const sms = await startSmsProvider(() => ({ status: 500, body: 'provider down' }));
    closers.push(() => sms.close());
    const { message: emailMessage, token } = await sendLink(t, moveIn.id, { email: 'grace@example.com' });
    const { message: smsMessage } = await sendLink(t, moveIn.id, { smsNumber: '+15555550100' });
    await drain(worker('people', { SMTP_URL: smtp.url, SMS_WEBHOOK_URL: sms.url }));
    expect(smtp.received).toHaveLength(1);
    expect(await row(smsMessage.id)).toMatchObject({ status: 'failed' });
    const opened = await t.app.inject({ method: 'GET', url: `/sign/${token}` });
    expect(opened.statusCode).toBe(200);
    expect((await postForm(t, token, goodForm())).statusCode).toBe(303);

    const queued = await webhookRows();
    await drain(worker());
    // Two e-sign messages sent, two documents viewed and two signed; one of every other type.
    expect(hooks.received).toHaveLength(WEBHOOK_EVENT_TYPES.length + 3);
    const byType = new Map<string, ReceivedWebhook[]>();
    for (const delivery of hooks.received) {
      const body = verifyDelivery(secret, delivery) as { type: string };
      byType.set(body.type, [...(byType.get(body.type) ?? []), delivery]);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.path).toBe('/hooks');
    }
    expect([...byType.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    // webhook-id is the delivery's id in the outbox; every queued delivery went out once.
    expect(hooks.received.map((d) => d.id).sort()).toEqual(queued.map((r) => r.id).sort());
    expect((await webhookRows()).every((r) => r.status === 'sent' && r.response_code === 204)).toBe(true);

    const one = (type: string) => bodyOf(byType.get(type)![0]);
    expect(one('note.created')).toEqual({
      type: 'note.created',
      timestamp: t.clock.now().toISOString(),
      data: { facility_id: f, ...note.json().note_event, ledger_id: null },
    });
    expect(one('payment.succeeded').data).toEqual({
      facility_id: f,
      tenant_id: null,
      ...paid.json().successful_payment_event,
    });
    expect(one('payment.succeeded').data).toMatchObject({
      payment_method: { card_number: '************1111', card_type: 'visa' },
    });
    expect(one('move_in.reviewed').data).toEqual({ facility_id: f, ...review.json().move_in });
    const sent = byType.get('esign.sent')!.map(bodyOf);
    expect(sent.map((b) => b.data.channel).sort()).toEqual(['email', 'sms']);
    expect(sent.find((b) => b.data.channel === 'email')!.data).toMatchObject({
      id: emailMessage.id,
      event_id: moveIn.id,
      channel: 'email',
      recipient: 'grace@example.com',
      status: 'pending',
      documents: [expect.objectContaining({ description: 'Lease agreement' }), expect.anything()],
    });
    expect(one('esign.delivered').data).toMatchObject({ id: emailMessage.id, status: 'sent', attempts: 1 });
    expect(one('esign.failed').data).toMatchObject({
      id: smsMessage.id,
      channel: 'sms',
      status: 'failed',
      last_error: 'SMS provider answered 500: provider down',
    });
    const viewed = byType.get('document.viewed')!.map(bodyOf);
    expect(viewed.map((v) => v.data.description).sort()).toEqual(['Gate code addendum', 'Lease agreement']);
    expect(viewed[0].data).toMatchObject({
      facility_id: f,
      event_id: moveIn.id,
      type: 'PrintTemplate',
      esign: { message_id: emailMessage.id, channel: 'email', recipient: 'grace@example.com' },
    });
    const signed = byType.get('document.signed')!.map(bodyOf);
    expect(signed[0].data).toMatchObject({
      event_id: moveIn.id,
      esign: { message_id: emailMessage.id, signer_name: 'Grace Hopper', signed_sha256: expect.any(String) },
    });
    // No text of a message (the signing link is in it) and no card number reach a payload.
    const payloads = (await webhookRows()).map((r) => r.payload).join('\n');
    expect(payloads).not.toContain(VISA);
    expect(payloads).not.toContain(token);
    for (const delivery of hooks.received) expect(delivery.body).not.toContain(token);
  });

  it('sends only the event types an endpoint asked for, and nothing to disabled endpoints or other companies', async () => {
    const notes = await receiver();
    const payments = await receiver();
    const off = await receiver();
    await register(notes.url, ['note.created']);
    await register(payments.url, ['payment.succeeded']);
    const disabled = await register(off.url);
    await t.services.webhooks.disable({ companyId: t.world.company.id }, disabled.endpoint.id);
    await t.services.webhooks.createEndpoint(t.world.otherCompany.id, {
      url: off.url,
      eventTypes: ['note.created'],
    });

    expect(
      (await t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Hello', unit_id: unit.id } }))
        .statusCode,
    ).toBe(200);
    await drain(worker());
    expect(notes.received.map((d) => bodyOf(d).type)).toEqual(['note.created']);
    expect(payments.received).toEqual([]);
    expect(off.received).toEqual([]);
    expect(await webhookRows()).toHaveLength(1);
  });

  it('writes nothing for a payment that is rolled back (declined), one delivery for one that commits', async () => {
    const hooks = await receiver();
    await register(hooks.url, ['payment.succeeded']);
    const declined = await t.postJson(
      pay.url,
      payment(
        [{ invoiceable_item_id: pay.cheap.id, quantity: 1 }],
        creditCard({ card_number: DECLINED_VISA }),
      ),
    );
    expect(declined.statusCode).toBe(400);
    expect(await rows()).toEqual([]);

    const paid = await t.postJson(
      pay.url,
      payment([{ invoiceable_item_id: pay.cheap.id, quantity: 1 }], creditCard()),
    );
    expect(paid.statusCode).toBe(200);
    expect(await webhookRows()).toHaveLength(1);
    await drain(worker());
    expect(hooks.received.map((d) => bodyOf(d).data.id)).toEqual([paid.json().successful_payment_event.id]);
  });

  it('retries a receiver that fails three times with growing, jittered waits, then records the delivery', async () => {
    const hooks = await receiver((n) => (n < 3 ? { status: 500, body: 'not now' } : { status: 200 }));
    const { secret } = await register(hooks.url, ['note.created']);
    await t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Retry me', unit_id: unit.id } });
    const [queued] = await webhookRows();
    const w = worker();

    for (let failure = 1; failure <= 3; failure += 1) {
      expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
      const now = t.clock.now().getTime();
      const waiting = await row(queued.id);
      expect(waiting).toMatchObject({
        status: 'pending',
        attempts: failure,
        response_code: 500,
        last_error: 'endpoint answered 500: not now',
      });
      const wait = new Date(waiting.next_attempt_at).getTime() - now;
      const base = WEBHOOK_RETRY_SCHEDULE_MS[failure - 1];
      expect(wait).toBeGreaterThanOrEqual(base * 0.8);
      expect(wait).toBeLessThanOrEqual(base * 1.2);
      // Not due a moment before its time.
      t.clock.advance(wait - 1);
      expect((await w.runOnce()).claimed).toBe(0);
      t.clock.advance(1);
    }
    expect(await w.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await row(queued.id)).toMatchObject({
      status: 'sent',
      attempts: 4,
      response_code: 200,
      last_error: null,
    });

    // Four attempts, one webhook-id, a timestamp of its own each, every one signed.
    expect(hooks.received.map((d) => d.id)).toEqual([queued.id, queued.id, queued.id, queued.id]);
    expect(new Set(hooks.received.map((d) => d.timestamp)).size).toBe(4);
    for (const delivery of hooks.received)
      expect(verifyDelivery(secret, delivery)).toMatchObject({ type: 'note.created' });
    expect(new Set(hooks.received.map((d) => d.body)).size).toBe(1);
  });

  it('gives up after the last attempt (about a day), counts outcomes in /metrics, and replays on request', async () => {
    let down = true;
    const hooks = await receiver(() => (down ? { status: 503 } : { status: 202 }));
    const { endpoint } = await register(hooks.url, ['note.created']);
    await t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Nobody home', unit_id: unit.id } });
    const [queued] = await webhookRows();
    const w = worker();
    const before = await deliveryCounts();
    const started = t.clock.now().getTime();
    for (let attempt = 1; attempt <= WEBHOOK_RETRY_SCHEDULE_MS.length; attempt += 1) {
      expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
      t.clock.set(new Date((await row(queued.id)).next_attempt_at));
    }
    expect(await w.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
    const span = t.clock.now().getTime() - started;
    expect(span).toBeGreaterThan(20 * HOUR);
    expect(span).toBeLessThan(34 * HOUR);
    expect(await row(queued.id)).toMatchObject({ status: 'failed', attempts: 8, response_code: 503 });
    expect(hooks.received).toHaveLength(8);

    const after = await deliveryCounts();
    expect(after.retrying - before.retrying).toBe(7);
    expect(after.failed - before.failed).toBe(1);
    expect(after.sent - before.sent).toBe(0);

    // The receiver is back: a replay sends the same webhook-id and body again.
    down = false;
    const replayed = await t.services.webhooks.replay({ companyId: t.world.company.id }, queued.id);
    expect(replayed).toMatchObject({
      id: queued.id,
      endpointId: endpoint.id,
      status: 'pending',
      attempts: 0,
    });
    expect(await w.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(hooks.received).toHaveLength(9);
    expect(hooks.received[8].id).toBe(queued.id);
    expect(hooks.received[8].body).toBe(hooks.received[0].body);
    expect((await deliveryCounts()).sent - after.sent).toBe(1);
    // Another company's delivery is not found.
    await expect(
      t.services.webhooks.replay({ companyId: t.world.otherCompany.id }, queued.id),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('signs with both secrets for a day after a rotation, then with the new one only', async () => {
    const hooks = await receiver();
    const { endpoint, secret: old } = await register(hooks.url, ['note.created']);
    const note = () =>
      t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Rotate', unit_id: unit.id } });
    await note();
    const { secret: fresh } = await t.services.webhooks.rotateSecret(
      { companyId: t.world.company.id },
      endpoint.id,
    );
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(old);
    await note();
    await drain(worker());
    const [before, during] = hooks.received;
    expect(before.signature.split(' ')).toHaveLength(2);
    expect(during.signature.split(' ')).toHaveLength(2);
    // A receiver still on the old secret and one on the new both accept.
    for (const delivery of [before, during]) {
      expect(verifyDelivery(old, delivery)).toMatchObject({ type: 'note.created' });
      expect(verifyDelivery(fresh, delivery)).toMatchObject({ type: 'note.created' });
    }

    t.clock.advance(24 * HOUR);
    await note();
    await drain(worker('w2'));
    const after = hooks.received[2];
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(verifyDelivery(fresh, after)).toMatchObject({ type: 'note.created' });
    expect(() => verifyDelivery(old, after)).toThrow('No matching signature found');
  });

  it('disables an endpoint that fails for days; its deliveries then fail at once until it is enabled', async () => {
    let down = true;
    const hooks = await receiver(() => (down ? { status: 500 } : { status: 200 }));
    const { endpoint } = await register(hooks.url, ['note.created']);
    const note = () =>
      t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Still there?', unit_id: unit.id } });
    const w = worker();
    await note();
    expect(await w.runOnce()).toMatchObject({ retrying: 1 });
    const failing = await t.services.webhooks.endpointFor('operator', endpoint.id);
    expect(failing).toMatchObject({ disabledAt: null, failingSince: t.clock.now().toISOString() });

    t.clock.advance(5 * 24 * HOUR);
    await note();
    // Both the new delivery and the first one's retry fail; that makes five days: disabled.
    expect(await w.runOnce()).toMatchObject({ claimed: 2 });
    const disabled = await t.services.webhooks.endpointFor('operator', endpoint.id);
    expect(disabled).toMatchObject({ disabledReason: 'failing', disabledAt: t.clock.now().toISOString() });
    const received = hooks.received.length;

    // Disabled: new events are not queued for it, and what was waiting fails without a request.
    await note();
    t.clock.advance(24 * HOUR);
    await drain(w);
    expect(hooks.received).toHaveLength(received);
    expect((await webhookRows()).map((r) => r.status)).toEqual(['failed', 'failed']);
    expect((await webhookRows())[0].last_error).toBe(
      'the endpoint is disabled; enable it and replay the delivery',
    );

    // Enabled again (its failures forgotten), a replay reaches the receiver.
    down = false;
    const enabled = await t.services.webhooks.enable({ companyId: t.world.company.id }, endpoint.id);
    expect(enabled).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: null });
    const [first] = await webhookRows();
    await t.services.webhooks.replay({ companyId: t.world.company.id }, first.id);
    await drain(w);
    expect(hooks.received.at(-1)!.id).toBe(first.id);
    expect(await row(first.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('follows no redirect, reads a bounded answer, and times out a receiver that never answers', async () => {
    const workerWith = (id: string, timeoutMs: number) => {
      const transport = new HttpWebhookTransport({
        timeoutMs,
        maxResponseBytes: 1024,
        allowHosts: ['127.0.0.1'],
      });
      closers.push(() => transport.close());
      const sender = new WebhookDispatcher(t.services.webhookEndpoints, transport, t.clock);
      return createOutboxWorker(t.services, config, {
        id,
        transports: { ...outboxTransportsFrom(config.outbox), webhook: sender },
      });
    };
    const note = () =>
      t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Bounded', unit_id: unit.id } });
    const scope = { companyId: t.world.company.id };

    const elsewhere = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    const endless = await receiver(() => 'stream');
    const a = await register(redirecting.url, ['note.created']);
    const b = await register(endless.url, ['note.created']);
    await note();
    // The endless answer is cut after 1 KiB; the redirect is an answer like any other.
    expect(await workerWith('bounded', 60_000).runOnce()).toMatchObject({ claimed: 2, sent: 1, retrying: 1 });
    const byEndpoint = new Map((await webhookRows()).map((r) => [r.recipient, r]));
    expect(byEndpoint.get(a.endpoint.id)).toMatchObject({
      status: 'pending',
      response_code: 307,
      last_error: 'endpoint answered 307 (redirects are not followed)',
    });
    expect(elsewhere.received).toEqual([]);
    expect(byEndpoint.get(b.endpoint.id)).toMatchObject({ status: 'sent', response_code: 200 });

    // A receiver that holds the request gets the timeout, and the worker moves on.
    await t.services.webhooks.disable(scope, a.endpoint.id);
    await t.services.webhooks.disable(scope, b.endpoint.id);
    const silent = await receiver(() => 'hold');
    const c = await register(silent.url, ['note.created']);
    await note();
    expect(await workerWith('impatient', 300).runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect((await webhookRows()).find((r) => r.recipient === c.endpoint.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: null,
      last_error: 'no answer within 300 ms',
    });
    expect(silent.received).toHaveLength(1);
  });

  it('refuses at send time a host that resolves to a private or loopback address now (DNS rebinding)', async () => {
    const hooks = await receiver();
    const port = new URL(hooks.url).port;
    const answers: Record<string, string[]> = { 'hooks.example.test': ['93.184.216.34'] };
    const resolver: HostResolver = { addresses: async (host) => answers[host] ?? [] };
    // Registered while the name pointed at a public address...
    const service = new WebhooksService(t.services.webhookEndpoints, resolver, t.clock, t.services.outbox, {
      eventTypes: WEBHOOK_EVENT_TYPES,
      allowHosts: [],
    });
    const { endpoint } = await service.createEndpoint(t.world.company.id, {
      url: `https://hooks.example.test:${port}/hooks`,
      eventTypes: ['note.created'],
    });
    // ...and pointing at this machine when the delivery goes.
    answers['hooks.example.test'] = ['93.184.216.34', '127.0.0.1'];
    await t.postJson(`/v1/${facility.id}/notes`, { note: { note_text: 'Rebound', unit_id: unit.id } });
    const transport = new HttpWebhookTransport({
      timeoutMs: 60_000,
      maxResponseBytes: 1024,
      allowHosts: [],
      resolver,
    });
    const sender = new WebhookDispatcher(t.services.webhookEndpoints, transport, t.clock);
    const w = createOutboxWorker(t.services, config, {
      id: 'ssrf',
      transports: { ...outboxTransportsFrom(config.outbox), webhook: sender },
    });
    expect(await w.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const [refused] = await webhookRows();
    expect(refused).toMatchObject({
      recipient: endpoint.id,
      status: 'pending',
      response_code: null,
      last_error:
        'refused: hooks.example.test resolves to 127.0.0.1, not a public address (see WEBHOOK_ALLOW_HOSTS)',
    });
    expect(hooks.received).toEqual([]);
  });
});
