import type {
  DatasetEvent,
  DatasetEventDocument,
  DatasetFacility,
} from '../../../src/store/dataset/dataset.types';
import { buildDocument, buildEvent, buildFacility } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';

const UNKNOWN_ID = '7d1c3f7e-1111-4222-8333-944455556666';

describeEachDialect('GET /v1/:facility_id/events/:event_id/documents', (dialect) => {
  let t: TestApp;
  let moveIn: DatasetEvent;
  let moveOut: DatasetEvent;
  let payment: DatasetEvent;
  let empty: DatasetEvent;
  let sisterEvent: DatasetEvent;
  let foreignEvent: DatasetEvent;
  let sister: DatasetFacility;
  let lease: DatasetEventDocument;
  let addendumA: DatasetEventDocument;
  let addendumB: DatasetEventDocument;
  let receipt: DatasetEventDocument;
  const url = (eventId: string, query = '') =>
    `/v1/${t.world.facility.id}/events/${eventId}/documents${query}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    sister = buildFacility({ company_id: company.id, name: 'Sister Site', time_zone: 'Europe/Berlin' });
    moveIn = buildEvent({ facility_id: facility.id, type: 'move_in_unit_event' });
    moveOut = buildEvent({ facility_id: facility.id, type: 'move_out_unit_event' });
    payment = buildEvent({ facility_id: facility.id, type: 'successful_payment_event' });
    empty = buildEvent({ facility_id: facility.id });
    sisterEvent = buildEvent({ facility_id: sister.id });
    foreignEvent = buildEvent({ facility_id: otherFacility.id });
    // Loaded out of order; two share created_at so the id decides between them.
    addendumB = buildDocument({
      event_id: moveIn.id,
      id: 'bbbbbbbb-0000-4000-8000-000000000000',
      description: 'Addendum B',
      created_at: '2026-11-20T16:30:00Z',
    });
    addendumA = buildDocument({
      event_id: moveIn.id,
      id: 'aaaaaaaa-0000-4000-8000-000000000000',
      description: 'Addendum A',
      is_relevant: false,
      esignable: false,
      created_at: '2026-11-20T16:30:00Z',
    });
    lease = buildDocument({
      event_id: moveIn.id,
      description: 'Lease agreement',
      created_at: '2026-07-04T09:15:30.250Z',
    });
    receipt = buildDocument({
      event_id: payment.id,
      description: 'Payment receipt',
      type: 'Receipt',
      created_at: '2026-11-21T01:00:00Z',
    });
    await t.load({
      facilities: [sister],
      events: [moveIn, moveOut, payment, empty, sisterEvent, foreignEvent],
      event_documents: [
        addendumB,
        addendumA,
        lease,
        receipt,
        buildDocument({ event_id: moveOut.id, description: 'Move-out inspection' }),
        buildDocument({ event_id: sisterEvent.id, description: 'Sister lease' }),
        buildDocument({ event_id: foreignEvent.id, description: 'Foreign lease' }),
      ],
    });
  });
  afterAll(() => t.close());

  it('lists the event documents by created_at then id, in the facility zone, with pagination first', async () => {
    const res = await t.get(url(moveIn.id), { 'x-request-id': 'docs-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['documents', 'meta']);
    expect(body.documents).toEqual([
      {
        id: lease.id,
        description: 'Lease agreement',
        type: 'PrintTemplate',
        is_relevant: true,
        created_at: '2026-07-04T05:15:30.250-04:00',
      },
      {
        id: addendumA.id,
        description: 'Addendum A',
        type: 'PrintTemplate',
        is_relevant: false,
        created_at: '2026-11-20T11:30:00-05:00',
      },
      {
        id: addendumB.id,
        description: 'Addendum B',
        type: 'PrintTemplate',
        is_relevant: true,
        created_at: '2026-11-20T11:30:00-05:00',
      },
    ]);
    for (const document of body.documents) {
      expect(Object.keys(document)).toEqual(['id', 'description', 'type', 'is_relevant', 'created_at']);
    }
    expect(body.meta).toEqual({
      pagination: {
        current_page: 1,
        total_pages: 1,
        per_page: 100,
        total_entries: 3,
        previous_page: null,
        next_page: null,
      },
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'GET',
      request_id: 'docs-1',
      parameters: { page: 1, per_page: 100, facility_id: t.world.facility.id, event_id: moveIn.id },
    });
    expect(Object.keys(body.meta)).toEqual([
      'pagination',
      'status_code',
      'status_message',
      'status_cat',
      'request_method',
      'request_id',
      'parameters',
    ]);
  });

  it('lists documents of move-out and successful payment events too', async () => {
    const out = await t.get(url(moveOut.id));
    expect(out.statusCode).toBe(200);
    expect(out.json().documents.map((d: { description: string }) => d.description)).toEqual([
      'Move-out inspection',
    ]);
    const paid = await t.get(url(payment.id));
    expect(paid.json().documents).toEqual([
      {
        id: receipt.id,
        description: 'Payment receipt',
        type: 'Receipt',
        is_relevant: true,
        created_at: '2026-11-20T20:00:00-05:00',
      },
    ]);
  });

  it('answers an empty list with one page for an event without documents', async () => {
    const res = await t.get(url(empty.id));
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toEqual([]);
    expect(res.json().meta.pagination).toEqual({
      current_page: 1,
      total_pages: 1,
      per_page: 100,
      total_entries: 0,
      previous_page: null,
      next_page: null,
    });
  });

  it('finds the event whatever the case of its id, and echoes the id as sent', async () => {
    const res = await t.get(url(moveIn.id.toUpperCase()));
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toHaveLength(3);
    expect(res.json().meta.parameters.event_id).toBe(moveIn.id.toUpperCase());
  });

  it('pages with per_page=1: one document per page, total_pages = number of documents', async () => {
    const res = await t.get(url(moveIn.id, '?per_page=1&page=2'));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.documents.map((d: { id: string }) => d.id)).toEqual([addendumA.id]);
    expect(body.meta.pagination).toEqual({
      current_page: 2,
      total_pages: 3,
      per_page: 1,
      total_entries: 3,
      previous_page: 1,
      next_page: 3,
    });
    expect(body.meta.parameters).toEqual({
      per_page: '1',
      page: '2',
      facility_id: t.world.facility.id,
      event_id: moveIn.id,
    });
    const last = await t.get(url(moveIn.id, '?per_page=1&page=3'));
    expect(last.json().documents.map((d: { id: string }) => d.id)).toEqual([addendumB.id]);
    expect(last.json().meta.pagination).toMatchObject({ previous_page: 2, next_page: null });
  });

  it('answers a page past the end with an empty list and correct meta', async () => {
    const res = await t.get(url(moveIn.id, '?page=4&per_page=1'));
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toEqual([]);
    expect(res.json().meta.pagination).toEqual({
      current_page: 4,
      total_pages: 3,
      per_page: 1,
      total_entries: 3,
      previous_page: 3,
      next_page: null,
    });
    const far = await t.get(url(moveIn.id, '?page=999999'));
    expect(far.statusCode).toBe(200);
    expect(far.json().documents).toEqual([]);
    expect(far.json().meta.pagination).toMatchObject({ current_page: 999999, per_page: 100, total_pages: 1 });
  });

  it('reads a per_page above 100 as 100, echoing the value sent and the default page', async () => {
    const res = await t.get(url(moveIn.id, '?per_page=500'));
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toHaveLength(3);
    expect(res.json().meta.pagination.per_page).toBe(100);
    expect(res.json().meta.parameters).toEqual({
      per_page: '500',
      page: 1,
      facility_id: t.world.facility.id,
      event_id: moveIn.id,
    });
  });

  it.each([
    ['per_page', '0'],
    ['per_page', '-1'],
    ['per_page', 'abc'],
    ['per_page', '1.5'],
    ['per_page', ''],
    ['per_page', "1'%20OR%20'1'%3D'1"],
    ['per_page', 'x'.repeat(10000)],
    ['page', '0'],
    ['page', '1.5'],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '1;DROP%20TABLE%20event_documents'],
    ['page', '9'.repeat(10000)],
  ])('answers 400/4 naming %s for %j', async (parameter, value) => {
    const res = await t.get(url(moveIn.id, `?${parameter}=${value}`));
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ status_code: 400, error_code: 4, errors: [{ parameter }] });
    expect(res.json().meta.message).toContain(parameter);
    expect(res.json()).not.toHaveProperty('documents');
  });

  it.each([
    ['an event of another facility of the company', () => sisterEvent.id],
    ['an event of another company', () => foreignEvent.id],
    ['an unknown id', () => UNKNOWN_ID],
    ['a malformed id', () => "1'%20OR%20'1'='1"],
    ['a very long id', () => 'e'.repeat(3000)],
  ])('answers 404/9 naming event_id for %s', async (_label, eventId) => {
    const res = await t.get(url(eventId()));
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({
      status_code: 404,
      error_code: 9,
      errors: [{ parameter: 'event_id' }],
    });
    expect(res.json()).not.toHaveProperty('documents');
  });

  it('lists a sister facility event under its own facility, in that facility zone', async () => {
    const res = await t.get(`/v1/${sister.id}/events/${sisterEvent.id}/documents`);
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toEqual([
      expect.objectContaining({ description: 'Sister lease', created_at: '2026-11-20T16:00:00+01:00' }),
    ]);
  });

  it('answers 403/13 for a facility of another company', async () => {
    const res = await t.get(`/v1/${t.world.otherFacility.id}/events/${foreignEvent.id}/documents`);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta).toMatchObject({ status_code: 403, error_code: 13 });
    expect(res.json()).not.toHaveProperty('documents');
  });

  it('answers 404/9 naming facility_id for an unknown facility', async () => {
    const res = await t.get(`/v1/${UNKNOWN_ID}/events/${moveIn.id}/documents`);
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
  });

  it('answers 401/2 without credentials, before looking at the parameters', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(moveIn.id, '?page=0') });
    expect(res.statusCode).toBe(401);
    expect(res.json().meta).toMatchObject({ status_code: 401, error_code: 2, errors: [] });
    expect(res.json()).not.toHaveProperty('documents');
  });

  it('answers 405 for a wrong method', async () => {
    const res = await t.app.inject({ method: 'POST', url: url(moveIn.id) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  describe('batch lookups for GraphQL', () => {
    it('answers documents of several events in key order, [] for none or unknown', async () => {
      const lists = await t.services.documents.documentsByEventIds([
        payment.id,
        UNKNOWN_ID,
        moveIn.id,
        empty.id,
      ]);
      expect(lists.map((list) => list.map((d) => d.id))).toEqual([
        [receipt.id],
        [],
        [lease.id, addendumA.id, addendumB.id],
        [],
      ]);
      expect(lists[2][1]).toEqual({
        id: addendumA.id,
        eventId: moveIn.id,
        description: 'Addendum A',
        type: 'PrintTemplate',
        isRelevant: false,
        esignable: false,
        createdAt: '2026-11-20T16:30:00.000Z',
      });
      expect(await t.services.documents.documentsByEventIds([])).toEqual([]);
    });

    it('answers events in key order, null for a missing one, in one query', async () => {
      t.db.queries.length = 0;
      const events = await t.services.documents.eventsByIds([moveOut.id, UNKNOWN_ID, moveIn.id, moveOut.id]);
      expect(events.map((e) => e?.id ?? null)).toEqual([moveOut.id, null, moveIn.id, moveOut.id]);
      expect(events[0]).toEqual({
        id: moveOut.id,
        facilityId: t.world.facility.id,
        type: 'move_out_unit_event',
        ledgerId: null,
        createdAt: '2026-11-20T15:00:00.000Z',
      });
      expect(t.db.queries).toHaveLength(1);
    });
  });
});
