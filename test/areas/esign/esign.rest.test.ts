import type { DatasetEvent, DatasetFacility } from '../../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent, buildFacility } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';

const UNKNOWN_ID = '7d1c3f7e-1111-4222-8333-944455556666';

describeEachDialect('POST /v1/:facility_id/documents/:event_id/send_esignable_documents', (dialect) => {
  let t: TestApp;
  let moveIn: DatasetEvent;
  let payment: DatasetEvent;
  let unsignable: DatasetEvent;
  let bare: DatasetEvent;
  let sisterEvent: DatasetEvent;
  let foreignEvent: DatasetEvent;
  let sister: DatasetFacility;
  const leaseId = '11111111-0000-4000-8000-000000000001';
  const addendumId = '11111111-0000-4000-8000-000000000002';
  const url = (eventId: string, facilityId = t.world.facility.id) =>
    `/v1/${facilityId}/documents/${eventId}/send_esignable_documents`;

  const outboxRows = () =>
    t.db.store.db.selectFrom('outbox_messages').selectAll().orderBy('created_at').orderBy('id').execute();
  const outboxCount = async () => (await outboxRows()).length;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    sister = buildFacility({ company_id: company.id, name: 'Sister Site' });
    moveIn = buildEvent({ facility_id: facility.id, type: 'move_in_unit_event' });
    payment = buildEvent({ facility_id: facility.id, type: 'successful_payment_event' });
    unsignable = buildEvent({ facility_id: facility.id, type: 'move_out_unit_event' });
    bare = buildEvent({ facility_id: facility.id });
    sisterEvent = buildEvent({ facility_id: sister.id });
    foreignEvent = buildEvent({ facility_id: otherFacility.id });
    await t.load({
      facilities: [sister],
      events: [moveIn, payment, unsignable, bare, sisterEvent, foreignEvent],
      event_documents: [
        buildDocument({
          id: addendumId,
          event_id: moveIn.id,
          description: 'Gate code addendum',
          created_at: '2026-11-20T16:00:00Z',
        }),
        buildDocument({
          id: leaseId,
          event_id: moveIn.id,
          description: 'Lease agreement',
          created_at: '2026-11-20T15:00:00Z',
        }),
        buildDocument({ event_id: moveIn.id, description: 'Welcome letter', esignable: false }),
        buildDocument({ event_id: payment.id, description: 'Payment receipt', esignable: true }),
        buildDocument({ event_id: unsignable.id, description: 'Move-out inspection', esignable: false }),
        buildDocument({ event_id: sisterEvent.id }),
        buildDocument({ event_id: foreignEvent.id }),
      ],
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.store.db.deleteFrom('outbox_messages').execute();
  });

  it('queues one email in the outbox and answers 200 with only meta', async () => {
    const res = await t.postJson(
      url(moveIn.id),
      { email: 'Ada.Lovelace@Example.COM' },
      { 'x-request-id': 'esign-1' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      meta: {
        status_code: 200,
        status_message: 'OK',
        status_cat: 'https://http.cat/200',
        request_method: 'POST',
        request_id: 'esign-1',
        parameters: {
          email: 'Ada.Lovelace@Example.COM',
          facility_id: t.world.facility.id,
          event_id: moveIn.id,
        },
      },
    });

    const rows = await outboxRows();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    const now = t.clock.now().toISOString();
    expect(row).toMatchObject({
      facility_id: t.world.facility.id,
      event_id: moveIn.id,
      channel: 'email',
      recipient: 'Ada.Lovelace@example.com',
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      claimed_by: null,
      claimed_until: null,
      last_error: null,
      sent_at: null,
    });
    const payload = JSON.parse(row.payload);
    const base = `http://127.0.0.1:3000/v1/${t.world.facility.id}/documents`;
    // Only the esignable documents, by created_at.
    expect(payload.documents).toEqual([
      { id: leaseId, description: 'Lease agreement', url: `${base}/${leaseId}` },
      { id: addendumId, description: 'Gate code addendum', url: `${base}/${addendumId}` },
    ]);
    expect(payload.subject).toBe('Documents to sign from Main Street');
    expect(payload.text).toContain('- Lease agreement\n');
    expect(payload.text).toMatch(/\nhttp:\/\/127\.0\.0\.1:3000\/sign\/[A-Za-z0-9_-]{43}\n/);
    expect(payload.text).not.toContain('Welcome letter');
  });

  it('queues one text message, the number in E.164 form', async () => {
    const res = await t.postJson(url(payment.id), { sms_number: '(555) 555-0100' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['meta']);
    expect(res.json().meta.parameters).toEqual({
      sms_number: '(555) 555-0100',
      facility_id: t.world.facility.id,
      event_id: payment.id,
    });
    const rows = await outboxRows();
    expect(rows.map((r) => [r.channel, r.recipient, r.event_id, r.status])).toEqual([
      ['sms', '+15555550100', payment.id, 'pending'],
    ]);
    expect(JSON.parse(rows[0].payload).text).toMatch(/^Main Street: please review and sign 1 document\. /);
  });

  it.each<[string, string]>([
    ['+1 555 555 0100', '+15555550100'],
    ['555.555.0100', '+15555550100'],
    ['1-555-555-0100', '+15555550100'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+49 (30) 901820', '+4930901820'],
  ])('reads the number %s as %s', async (given, stored) => {
    const res = await t.postJson(url(moveIn.id), { sms_number: given });
    expect(res.statusCode).toBe(200);
    expect((await outboxRows()).map((r) => r.recipient)).toEqual([stored]);
  });

  it('takes a blank other field as not given', async () => {
    const res = await t.postJson(url(moveIn.id), { email: 'ada@example.com', sms_number: '  ' });
    expect(res.statusCode).toBe(200);
    const other = await t.postJson(url(moveIn.id), { email: null, sms_number: '+15555550100' });
    expect(other.statusCode).toBe(200);
    expect((await outboxRows()).map((r) => r.channel).sort()).toEqual(['email', 'sms']);
  });

  it('accepts a form-encoded body signed with OAuth 1.0', async () => {
    const data = { email: 'ada@example.com' };
    const path = url(moveIn.id);
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        authorization: oauthHeader(t.world.client, { method: 'POST', url: path, data }),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(data).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.parameters).toEqual({
      email: 'ada@example.com',
      facility_id: t.world.facility.id,
      event_id: moveIn.id,
    });
    expect((await outboxRows()).map((r) => r.recipient)).toEqual(['ada@example.com']);
  });

  it('queues a new message for each request', async () => {
    await t.postJson(url(moveIn.id), { email: 'ada@example.com' });
    await t.postJson(url(moveIn.id), { email: 'ada@example.com' });
    expect(await outboxCount()).toBe(2);
  });

  it('answers 400/5 naming both when email and sms_number are given, writing nothing', async () => {
    const res = await t.postJson(url(moveIn.id), { email: 'ada@example.com', sms_number: '+15555550100' });
    expect(res.statusCode).toBe(400);
    const meta = res.json().meta;
    expect(meta).toMatchObject({
      status_code: 400,
      status_message: 'Bad Request',
      error_code: 5,
      message: 'give either email or sms_number, not both',
      errors: [
        { parameter: 'email', message: 'cannot be given together with sms_number' },
        { parameter: 'sms_number', message: 'cannot be given together with email' },
      ],
      parameters: {
        email: 'ada@example.com',
        sms_number: '+15555550100',
        facility_id: t.world.facility.id,
        event_id: moveIn.id,
      },
    });
    // Both given wins over either being malformed.
    const malformed = await t.postJson(url(moveIn.id), { email: 'nope', sms_number: 'nope' });
    expect(malformed.json().meta.error_code).toBe(5);
    expect(await outboxCount()).toBe(0);
  });

  it.each<[string, unknown]>([
    ['no body keys', {}],
    ['both null', { email: null, sms_number: null }],
    ['both blank', { email: '', sms_number: ' ' }],
    ['other keys only', { phone: '+15555550100', mail: 'ada@example.com' }],
  ])('answers 400/4 naming both when neither is given (%s)', async (_name, body) => {
    const res = await t.postJson(url(moveIn.id), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({
      error_code: 4,
      message: 'email or sms_number is required',
      errors: [
        { parameter: 'email', message: 'is required when sms_number is not given' },
        { parameter: 'sms_number', message: 'is required when email is not given' },
      ],
    });
    expect(await outboxCount()).toBe(0);
  });

  it('answers 400/4 without a body at all', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(moveIn.id),
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().meta.error_code).toBe(4);
    expect(await outboxCount()).toBe(0);
  });

  const long = 'a'.repeat(10_000);
  it.each<[string, unknown, string, string]>([
    ['an address without @', { email: 'ada.example.com' }, 'email', 'must be an email address'],
    ['an address without a domain', { email: 'ada@' }, 'email', 'must be an email address'],
    ['a single-label domain', { email: 'ada@localhost' }, 'email', 'must be an email address'],
    ['two @', { email: 'ada@@example.com' }, 'email', 'must be an email address'],
    ['a space inside', { email: 'ada lovelace@example.com' }, 'email', 'must be an email address'],
    ['a display name', { email: 'Ada <ada@example.com>' }, 'email', 'must be an email address'],
    [
      'a header injection',
      { email: 'ada@example.com\r\nBcc: x@evil.com' },
      'email',
      'must be an email address',
    ],
    [
      'an SQL fragment',
      { email: "a'; drop table outbox_messages; --@x.com" },
      'email',
      'must be an email address',
    ],
    ['10,000 characters', { email: `${long}@example.com` }, 'email', 'must be an email address'],
    ['a number', { email: 12 }, 'email', 'must be a string'],
    ['an object', { email: { address: 'ada@example.com' } }, 'email', 'must be a string'],
    ['a list', { email: ['ada@example.com'] }, 'email', 'must be a string'],
    ['letters', { sms_number: 'call me' }, 'sms_number', 'must be a phone number'],
    ['too few digits', { sms_number: '555-0100' }, 'sms_number', 'must be a phone number'],
    ['too many digits', { sms_number: '+1234567890123456' }, 'sms_number', 'must be a phone number'],
    ['a bad area code', { sms_number: '055-555-0100' }, 'sms_number', 'must be a phone number'],
    ['an extension', { sms_number: '555-555-0100 x12' }, 'sms_number', 'must be a phone number'],
    ['a plus inside', { sms_number: '555+5550100' }, 'sms_number', 'must be a phone number'],
    ['an SQL fragment', { sms_number: "5555550100'; --" }, 'sms_number', 'must be a phone number'],
    ['10,000 digits', { sms_number: '5'.repeat(10_000) }, 'sms_number', 'must be a phone number'],
    ['a number', { sms_number: 5555550100 }, 'sms_number', 'must be a string'],
    ['true', { sms_number: true }, 'sms_number', 'must be a string'],
  ])('answers 400/4 naming the parameter for %s', async (_name, body, parameter, message) => {
    const res = await t.postJson(url(moveIn.id), body);
    expect(res.statusCode).toBe(400);
    const meta = res.json().meta;
    expect(meta.error_code).toBe(4);
    expect(meta.errors).toHaveLength(1);
    expect(meta.errors[0].parameter).toBe(parameter);
    expect(meta.errors[0].message).toContain(message);
    expect(meta.message).toContain(parameter);
    expect(await outboxCount()).toBe(0);
  });

  it('answers 400/3 for an event without esignable documents, writing nothing', async () => {
    for (const event of [unsignable, bare]) {
      const res = await t.postJson(url(event.id), { email: 'ada@example.com' });
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 3,
        message: `event ${event.id} has no esignable documents`,
        errors: [{ parameter: 'event_id', message: 'has no esignable documents' }],
      });
    }
    expect(await outboxCount()).toBe(0);
  });

  it.each<[string, () => string]>([
    ['an unknown event', () => UNKNOWN_ID],
    ["another facility's event of the same company", () => sisterEvent.id],
    ["another company's event", () => foreignEvent.id],
    ['a document id', () => leaseId],
    ['a malformed id', () => 'event-1'],
    ['an SQL fragment', () => encodeURIComponent("1' or '1'='1")],
    ['a 3,000-character id', () => 'e'.repeat(3_000)],
  ])('answers 404/9 naming event_id for %s, writing nothing', async (_name, eventId) => {
    const res = await t.postJson(url(eventId()), { email: 'ada@example.com' });
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({
      error_code: 9,
      errors: [{ parameter: 'event_id', message: 'no event with this id' }],
    });
    expect(await outboxCount()).toBe(0);
  });

  it('answers 414 in the envelope for a 10,000-character event id, writing nothing', async () => {
    const res = await t.postJson(url('e'.repeat(10_000)), { email: 'ada@example.com' });
    expect(res.statusCode).toBe(414);
    expect(res.json().meta.status_code).toBe(414);
    expect(await outboxCount()).toBe(0);
  });

  it('finds the event by its id in upper case', async () => {
    const res = await t.postJson(url(moveIn.id.toUpperCase()), { email: 'ada@example.com' });
    expect(res.statusCode).toBe(200);
    expect((await outboxRows())[0].event_id).toBe(moveIn.id);
  });

  it('answers 404/9 for an unknown facility and 403/13 for a foreign one', async () => {
    const unknown = await t.postJson(url(moveIn.id, UNKNOWN_ID), { email: 'ada@example.com' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
    const foreign = await t.postJson(url(foreignEvent.id, t.world.otherFacility.id), {
      email: 'ada@example.com',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().meta.error_code).toBe(13);
    expect(await outboxCount()).toBe(0);
  });

  it('answers 401/2 without credentials or with a wrong token', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: url(moveIn.id),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(none.statusCode).toBe(401);
    expect(none.json().meta.error_code).toBe(2);
    const wrong = await t.postJson(
      url(moveIn.id),
      { email: 'ada@example.com' },
      { authorization: 'Bearer nope' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(await outboxCount()).toBe(0);
  });

  it('answers 405 for another method and 400/4 for a body that is not an object', async () => {
    const get = await t.get(url(moveIn.id));
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const list = await t.postJson(url(moveIn.id), ['ada@example.com']);
    expect(list.statusCode).toBe(400);
    expect(list.json().meta.error_code).toBe(4);
    expect(await outboxCount()).toBe(0);
  });
});
