import { loadConfig } from '../../../src/config';
import { outboxSettingsFrom, outboxTransportsFrom } from '../../../src/outbox.runtime';
import { OutboxWorker } from '../../../src/areas/outbox/outbox.worker';
import type { DatasetEvent } from '../../../src/store/dataset/dataset.types';
import { SqlOutboxRepository as OutboxRepository } from '../../../src/areas/outbox/outbox.repository';
import { domainEventBus } from '../../../src/modules';
import type {
  FacilityOutboxQuery,
  FacilityOutboxQueryVariables,
  SendEsignableDocumentsMutation,
  SendEsignableDocumentsMutationVariables,
} from '../../generated/graphql';
import { startSmsProvider } from '../../support/outbox-servers';
import { buildDocument, buildEvent } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';

const SendEsignableDocuments = operation<
  SendEsignableDocumentsMutation,
  SendEsignableDocumentsMutationVariables
>('esign.graphql', 'SendEsignableDocuments');
const FacilityOutbox = operation<FacilityOutboxQuery, FacilityOutboxQueryVariables>(
  'esign.graphql',
  'FacilityOutbox',
);

const UNKNOWN_ID = '7d1c3f7e-1111-4222-8333-944455556666';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDialect('GraphQL sendEsignableDocuments and the outbox', (dialect) => {
  let t: TestApp;
  let moveIn: DatasetEvent;
  let unsignable: DatasetEvent;
  let foreignEvent: DatasetEvent;
  const leaseId = '33333333-0000-4000-8000-000000000001';
  // 15:00 UTC is 10:00 in New York (the facility's zone) in November.
  const at = new Date('2026-11-21T15:00:00Z');

  const send = (variables: Partial<SendEsignableDocumentsMutationVariables>) =>
    run(t, SendEsignableDocuments, {
      facilityId: t.world.facility.id,
      eventId: moveIn.id,
      email: null,
      smsNumber: null,
      ...variables,
    });
  const outbox = (variables: Partial<FacilityOutboxQueryVariables> = {}) =>
    run(t, FacilityOutbox, {
      id: t.world.facility.id,
      status: null,
      page: null,
      perPage: null,
      ...variables,
    });
  const outboxCount = async () =>
    (await t.db.store.db.selectFrom('outbox_messages').select('id').execute()).length;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    moveIn = buildEvent({ facility_id: facility.id });
    unsignable = buildEvent({ facility_id: facility.id, type: 'move_out_unit_event' });
    foreignEvent = buildEvent({ facility_id: otherFacility.id });
    await t.load({
      events: [moveIn, unsignable, foreignEvent],
      event_documents: [
        buildDocument({ id: leaseId, event_id: moveIn.id, description: 'Lease agreement' }),
        buildDocument({ event_id: moveIn.id, description: 'Welcome letter', esignable: false }),
        buildDocument({ event_id: unsignable.id, esignable: false }),
        buildDocument({ event_id: foreignEvent.id }),
      ],
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(at);
    await t.db.store.db.deleteFrom('outbox_messages').execute();
  });

  it('queues an email and answers the pending message', async () => {
    const res = await send({ email: 'Grace@Example.com' });
    expect(res.errors).toBeUndefined();
    const [message] = res.data!.sendEsignableDocuments.messages;
    expect(message.id).toMatch(UUID);
    expect(res.data).toEqual({
      sendEsignableDocuments: {
        eventId: moveIn.id,
        messages: [
          {
            id: message.id,
            eventId: moveIn.id,
            channel: 'EMAIL',
            recipient: 'Grace@example.com',
            status: 'PENDING',
            attempts: 0,
            nextAttemptAt: '2026-11-21T10:00:00-05:00',
            lastError: null,
            createdAt: '2026-11-21T10:00:00-05:00',
            sentAt: null,
            subject: 'Documents to sign from Main Street',
            documents: [
              {
                id: leaseId,
                description: 'Lease agreement',
                url: `http://127.0.0.1:3000/v1/${t.world.facility.id}/documents/${leaseId}`,
              },
            ],
          },
        ],
      },
    });
    expect(await outboxCount()).toBe(1);
  });

  it('queues a text message with the number in E.164 form', async () => {
    const res = await send({ smsNumber: '(555) 555-0100' });
    expect(res.errors).toBeUndefined();
    expect(res.data!.sendEsignableDocuments.messages).toMatchObject([
      { channel: 'SMS', recipient: '+15555550100', status: 'PENDING', subject: null },
    ]);
  });

  it.each<[string, Partial<SendEsignableDocumentsMutationVariables>, string, string]>([
    ['both recipients', { email: 'a@example.com', smsNumber: '+15555550100' }, 'CONFLICT', 'email'],
    ['neither recipient', {}, 'BAD_USER_INPUT', 'email'],
    ['blank recipients', { email: ' ', smsNumber: '' }, 'BAD_USER_INPUT', 'email'],
    ['a malformed email', { email: 'grace@' }, 'BAD_USER_INPUT', 'email'],
    ['a malformed number', { smsNumber: '12' }, 'BAD_USER_INPUT', 'smsNumber'],
    ['a 10,000-character number', { smsNumber: '5'.repeat(10_000) }, 'BAD_USER_INPUT', 'smsNumber'],
    ['an unknown event', { eventId: UNKNOWN_ID, email: 'a@example.com' }, 'NOT_FOUND', 'eventId'],
    ["another company's event", { email: 'a@example.com' }, 'NOT_FOUND', 'eventId'],
    ['an unknown facility', { facilityId: UNKNOWN_ID, email: 'a@example.com' }, 'NOT_FOUND', 'facilityId'],
  ])('answers %s with %s naming %s, writing nothing', async (name, variables, code, parameter) => {
    const given = name === "another company's event" ? { ...variables, eventId: foreignEvent.id } : variables;
    const res = await send(given);
    expect(res.data).toBeNull();
    expect(codesOf(res)).toEqual([code]);
    expect(res.errors![0].extensions.parameter).toBe(parameter);
    expect(res.errors![0].message).not.toContain('sms_number');
    expect(res.errors![0].message).not.toContain('event_id');
    expect(await outboxCount()).toBe(0);
  });

  it('names smsNumber in the conflict of both recipients', async () => {
    const res = await send({ email: 'a@example.com', smsNumber: '+15555550100' });
    expect(res.errors![0]).toMatchObject({
      message: 'give either email or smsNumber, not both',
      extensions: {
        code: 'CONFLICT',
        errorCode: 5,
        problems: [
          { parameter: 'email', message: 'cannot be given together with smsNumber' },
          { parameter: 'smsNumber', message: 'cannot be given together with email' },
        ],
      },
    });
  });

  it('answers ACTION_FAILED for an event without esignable documents', async () => {
    const res = await send({ eventId: unsignable.id, email: 'a@example.com' });
    expect(codesOf(res)).toEqual(['ACTION_FAILED']);
    expect(res.errors![0].extensions).toMatchObject({ errorCode: 3, parameter: 'eventId' });
    expect(await outboxCount()).toBe(0);
  });

  it("answers FORBIDDEN for another company's facility and BAD_USER_INPUT for a malformed id", async () => {
    const foreign = await send({
      facilityId: t.world.otherFacility.id,
      eventId: foreignEvent.id,
      email: 'a@example.com',
    });
    expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
    const malformed = await send({ eventId: 'event-1', email: 'a@example.com' });
    expect(codesOf(malformed)).toEqual(['BAD_USER_INPUT']);
    expect(await outboxCount()).toBe(0);
  });

  it('answers 401 UNAUTHENTICATED without credentials, writing nothing', async () => {
    const res = await postGraphql(t.app, {
      query: SendEsignableDocuments.document,
      variables: { facilityId: t.world.facility.id, eventId: moveIn.id, email: 'a@example.com' },
    });
    expect(res.status).toBe(401);
    expect(codesOf(res)).toEqual(['UNAUTHENTICATED']);
    expect(await outboxCount()).toBe(0);
  });

  it('shows each message with its delivery state, newest first, by status and by page', async () => {
    // Queued through REST and GraphQL alike, a minute apart.
    const rest = await t.postJson(
      `/v1/${t.world.facility.id}/documents/${moveIn.id}/send_esignable_documents`,
      {
        sms_number: '+15555550101',
      },
    );
    expect(rest.statusCode).toBe(200);
    t.clock.advance(60_000);
    const failing = (await send({ smsNumber: '+15555550102' })).data!.sendEsignableDocuments.messages[0].id;
    t.clock.advance(60_000);
    const waiting = (await send({ email: 'grace@example.com' })).data!.sendEsignableDocuments.messages[0].id;

    // No SMTP transport: the email waits. The provider takes the first text and refuses the second.
    const provider = await startSmsProvider((n) =>
      n === 0 ? { status: 202 } : { status: 422, body: 'invalid number' },
    );
    try {
      const settings = loadConfig({ NODE_ENV: 'test', OUTBOX_MAX_ATTEMPTS: '1' }).outbox;
      const worker = new OutboxWorker(
        new OutboxRepository(t.db.store.db, domainEventBus()),
        t.clock,
        outboxTransportsFrom({ ...settings, smsWebhookUrl: provider.url }),
        { ...outboxSettingsFrom(settings), batchSize: 1 },
      );
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
      t.clock.advance(60_000);
      expect(await worker.runOnce()).toMatchObject({ claimed: 1, failed: 1 });
      expect(await worker.runOnce()).toMatchObject({ claimed: 0 });
    } finally {
      await provider.close();
    }

    const res = await outbox();
    expect(res.errors).toBeUndefined();
    const entries = res.data!.facility!.outboxMessages.entries;
    expect(entries).toEqual([
      {
        id: waiting,
        channel: 'EMAIL',
        recipient: 'grace@example.com',
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: '2026-11-21T10:02:00-05:00',
        lastError: null,
        sentAt: null,
      },
      {
        id: failing,
        channel: 'SMS',
        recipient: '+15555550102',
        status: 'FAILED',
        attempts: 1,
        nextAttemptAt: null,
        lastError: 'SMS provider answered 422: invalid number',
        sentAt: null,
      },
      {
        id: expect.stringMatching(UUID),
        channel: 'SMS',
        recipient: '+15555550101',
        status: 'SENT',
        attempts: 1,
        nextAttemptAt: null,
        lastError: null,
        sentAt: '2026-11-21T10:02:00-05:00',
      },
    ]);
    expect(res.data!.facility!.outboxMessages.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      perPage: 50,
      totalEntries: 3,
      previousPage: null,
      nextPage: null,
    });

    const failed = await outbox({ status: 'FAILED' });
    expect(failed.data!.facility!.outboxMessages.entries.map((e) => e.id)).toEqual([failing]);
    const second = await outbox({ page: 2, perPage: 2 });
    expect(second.data!.facility!.outboxMessages.entries.map((e) => e.recipient)).toEqual(['+15555550101']);
    expect(second.data!.facility!.outboxMessages.pagination).toMatchObject({
      currentPage: 2,
      totalPages: 2,
      previousPage: 1,
      nextPage: null,
    });
  });

  it('answers BAD_USER_INPUT naming page and perPage, and FORBIDDEN for a foreign outbox', async () => {
    const page = await outbox({ page: 0 });
    expect(codesOf(page)).toEqual(['BAD_USER_INPUT']);
    expect(page.errors![0].extensions.parameter).toBe('page');
    const perPage = await outbox({ perPage: -1 });
    expect(perPage.errors![0].extensions.parameter).toBe('perPage');
    const foreign = await outbox({ id: t.world.otherFacility.id });
    expect(codesOf(foreign)).toEqual(['FORBIDDEN']);
  });
});
