import { randomUUID } from 'node:crypto';
import type {
  EventDocumentsQuery,
  EventDocumentsQueryVariables,
  EventLedgerQuery,
  EventLedgerQueryVariables,
  FacilityEventsQuery,
  FacilityEventsQueryVariables,
} from '../../generated/graphql';
import { buildDocument, buildEvent, buildLedger, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, run } from '../../graphql/graphql-client';
import { camelize, restPagination } from '../../graphql/rest-compare';

const Events = operation<FacilityEventsQuery, FacilityEventsQueryVariables>(
  'events.graphql',
  'FacilityEvents',
);
const Documents = operation<EventDocumentsQuery, EventDocumentsQueryVariables>(
  'events.graphql',
  'EventDocuments',
);
const EventLedger = operation<EventLedgerQuery, EventLedgerQueryVariables>('events.graphql', 'EventLedger');

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describeEachDialect('GraphQL events and documents', (dialect) => {
  let t: TestApp;
  const ids = {
    moveIn: id(101),
    moveOut: id(102),
    payment: id(103),
    empty: id(104),
    foreign: randomUUID(),
    ledger: '',
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    const facility_id = facility.id;
    const tenant = buildTenant({ facility_id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id });
    const ledger = buildLedger({ facility_id, tenant_id: tenant.id, unit_id: unit.id });
    ids.ledger = ledger.id;
    await t.load({
      tenants: [tenant],
      units: [unit],
      ledgers: [ledger],
      events: [
        buildEvent({
          facility_id,
          id: ids.payment,
          type: 'successful_payment_event',
          created_at: '2026-11-03T12:00:00Z',
        }),
        buildEvent({ facility_id, id: ids.moveIn, ledger_id: ledger.id, created_at: '2026-07-01T12:00:00Z' }),
        buildEvent({
          facility_id,
          id: ids.moveOut,
          type: 'move_out_unit_event',
          created_at: '2026-11-03T12:00:00Z',
        }),
        buildEvent({ facility_id, id: ids.empty, created_at: '2026-11-04T12:00:00Z' }),
        buildEvent({ facility_id: otherFacility.id, id: ids.foreign }),
      ],
      event_documents: [
        buildDocument({
          event_id: ids.moveIn,
          id: id(3),
          description: 'Gate code',
          created_at: '2026-07-01T12:00:00Z',
        }),
        buildDocument({
          event_id: ids.moveIn,
          id: id(1),
          description: 'Lease',
          created_at: '2026-07-01T12:00:00Z',
        }),
        buildDocument({
          event_id: ids.moveIn,
          id: id(2),
          description: 'Addendum',
          is_relevant: false,
          esignable: false,
          created_at: '2026-06-30T12:00:00Z',
        }),
        buildDocument({ event_id: ids.payment, id: id(4), description: 'Receipt', esignable: false }),
        buildDocument({ event_id: ids.foreign, description: 'Not ours' }),
      ],
    });
  });
  afterAll(() => t.close());

  it.each([
    ['the default page', {}, ''],
    ['one document per page', { perPage: 1 }, '?per_page=1'],
    ['the second page of two', { page: 2, perPage: 2 }, '?page=2&per_page=2'],
    ['a page past the end', { page: 5, perPage: 2 }, '?page=5&per_page=2'],
    ['a per_page above 100', { perPage: 1000 }, '?per_page=1000'],
  ])('answers the documents of an event as REST does, for %s', async (_label, args, query) => {
    for (const eventId of [ids.moveIn, ids.payment, ids.empty]) {
      const res = await run(t, Documents, { id: t.world.facility.id, eventId, ...args });
      expect(res.errors).toBeUndefined();
      const rest = (await t.get(`/v1/${t.world.facility.id}/events/${eventId}/documents${query}`)).json();
      const page = res.data?.facility?.event?.documents;
      expect({
        entries: page?.entries.map(({ esignable: _e, event: _v, ...fields }) => fields),
        pagination: page?.pagination,
      }).toEqual({ entries: camelize(rest.documents), pagination: restPagination(rest) });
    }
  });

  it('writes each document with its event, oldest first, instants in the facility zone', async () => {
    const res = await run(t, Documents, { id: t.world.facility.id, eventId: ids.moveIn });
    expect(res.data?.facility?.event).toEqual({
      id: ids.moveIn,
      type: 'MOVE_IN_UNIT_EVENT',
      createdAt: '2026-07-01T08:00:00-04:00',
      facility: { id: t.world.facility.id },
      documents: {
        entries: [
          {
            id: id(2),
            description: 'Addendum',
            type: 'PrintTemplate',
            isRelevant: false,
            esignable: false,
            createdAt: '2026-06-30T08:00:00-04:00',
            event: { id: ids.moveIn },
          },
          {
            id: id(1),
            description: 'Lease',
            type: 'PrintTemplate',
            isRelevant: true,
            esignable: true,
            createdAt: '2026-07-01T08:00:00-04:00',
            event: { id: ids.moveIn },
          },
          {
            id: id(3),
            description: 'Gate code',
            type: 'PrintTemplate',
            isRelevant: true,
            esignable: true,
            createdAt: '2026-07-01T08:00:00-04:00',
            event: { id: ids.moveIn },
          },
        ],
        pagination: {
          currentPage: 1,
          totalPages: 1,
          perPage: 100,
          totalEntries: 3,
          previousPage: null,
          nextPage: null,
        },
      },
    });
  });

  it("lists the facility's events oldest first, of one type or all, paginated", async () => {
    const all = await run(t, Events, { id: t.world.facility.id });
    expect(all.errors).toBeUndefined();
    expect(all.data?.facility?.events.entries.map((e) => [e.id, e.type])).toEqual([
      [ids.moveIn, 'MOVE_IN_UNIT_EVENT'],
      [ids.moveOut, 'MOVE_OUT_UNIT_EVENT'],
      [ids.payment, 'SUCCESSFUL_PAYMENT_EVENT'],
      [ids.empty, 'MOVE_IN_UNIT_EVENT'],
    ]);
    const payments = await run(t, Events, { id: t.world.facility.id, type: 'SUCCESSFUL_PAYMENT_EVENT' });
    expect(payments.data?.facility?.events).toEqual({
      entries: [
        {
          id: ids.payment,
          type: 'SUCCESSFUL_PAYMENT_EVENT',
          createdAt: '2026-11-03T07:00:00-05:00',
          ledgerId: null,
        },
      ],
      pagination: {
        currentPage: 1,
        totalPages: 1,
        perPage: 100,
        totalEntries: 1,
        previousPage: null,
        nextPage: null,
      },
    });
    const second = await run(t, Events, { id: t.world.facility.id, page: 2, perPage: 3 });
    expect(second.data?.facility?.events.entries.map((e) => e.id)).toEqual([ids.empty]);
    expect(second.data?.facility?.events.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      perPage: 3,
      totalEntries: 4,
      previousPage: 1,
      nextPage: null,
    });
  });

  it('navigates from an event to its ledger and on to the tenant', async () => {
    const withLedger = await run(t, EventLedger, { id: t.world.facility.id, eventId: ids.moveIn });
    expect(withLedger.data?.facility?.event).toEqual({
      id: ids.moveIn,
      ledgerId: ids.ledger,
      ledger: { id: ids.ledger, tenant: { name: 'Grace Hopper' } },
    });
    const without = await run(t, EventLedger, { id: t.world.facility.id, eventId: ids.payment });
    expect(without.data?.facility?.event?.ledger).toBeNull();
  });

  it.each([
    ['unknown', () => randomUUID()],
    ["of another company's facility", () => ids.foreign],
  ])('answers NOT_FOUND (REST 404/9) naming id for an event %s', async (_label, eventId) => {
    const res = await run(t, Documents, { id: t.world.facility.id, eventId: eventId() });
    expect(res.data).toEqual({ facility: { event: null } });
    expect(res.errors?.[0]).toMatchObject({
      path: ['facility', 'event'],
      extensions: { code: 'NOT_FOUND', errorCode: 9, parameter: 'id' },
    });
  });

  it.each([
    ['page', { page: 0 }],
    ['perPage', { perPage: 0 }],
    ['perPage', { perPage: -1 }],
  ])('answers BAD_USER_INPUT naming %s out of range, on documents and on events', async (parameter, args) => {
    const documents = await run(t, Documents, { id: t.world.facility.id, eventId: ids.moveIn, ...args });
    expect(documents.data).toEqual({ facility: { event: null } });
    expect(documents.errors?.[0]).toMatchObject({
      path: ['facility', 'event', 'documents'],
      extensions: { code: 'BAD_USER_INPUT', errorCode: 4, parameter },
    });
    const events = await run(t, Events, { id: t.world.facility.id, ...args });
    expect(events.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', parameter } });
  });

  it('refuses an unknown event type with BAD_USER_INPUT', async () => {
    const res = await run(t, Events, {
      id: t.world.facility.id,
      type: 'RATE_CHANGE_EVENT' as FacilityEventsQueryVariables['type'],
    });
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
  });
});
