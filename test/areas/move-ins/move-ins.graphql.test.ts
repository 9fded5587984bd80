import { randomUUID } from 'node:crypto';
import type {
  EventDocumentDownloadsQuery,
  EventDocumentDownloadsQueryVariables,
  ReviewMoveInCostMutation,
  ReviewMoveInCostMutationVariables,
} from '../../generated/graphql';
import {
  buildDocument,
  buildEvent,
  buildItem,
  buildLedger,
  buildTenant,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { pdfText } from '../../support/pdf-text';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';

const ReviewMoveInCost = operation<ReviewMoveInCostMutation, ReviewMoveInCostMutationVariables>(
  'move-ins.graphql',
  'ReviewMoveInCost',
);
const EventDocumentDownloads = operation<EventDocumentDownloadsQuery, EventDocumentDownloadsQueryVariables>(
  'move-ins.graphql',
  'EventDocumentDownloads',
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDialect('GraphQL reviewMoveInCost and document downloads', (dialect) => {
  let t: TestApp;
  let unitId: string;
  let tenantId: string;
  let foreignUnitId: string;
  let feeId: string;
  let eventId: string;
  let documentId: string;
  // 02:00 UTC on July 5th is still July 4th in New York.
  const at = new Date('2026-07-05T02:00:00Z');

  const sessionCount = async () =>
    Number(
      (
        await t.db.store.db
          .selectFrom('move_in_sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const bearerGet = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.world.client.bearer_token}` } });
  const review = (input: ReviewMoveInCostMutationVariables['input'], facilityId = t.world.facility.id) =>
    run(t, ReviewMoveInCost, { facilityId, input });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    const tenant = buildTenant({ facility_id: facility.id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facility.id, name: 'C-12', rate: 80.25 });
    const foreignUnit = buildUnit({ facility_id: otherFacility.id });
    const fee = buildItem({
      facility_id: facility.id,
      kind: 'fee',
      description: 'Admin fee',
      required_at_move_in: true,
      tax_total: 0,
      total: 20,
    });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    const event = buildEvent({
      facility_id: facility.id,
      ledger_id: ledger.id,
      created_at: '2026-06-01T12:00:00Z',
    });
    const document = buildDocument({ event_id: event.id, description: 'Lease agreement' });
    await t.load({
      tenants: [tenant],
      units: [unit, foreignUnit],
      invoiceable_items: [fee],
      ledgers: [ledger],
      events: [event],
      event_documents: [document],
    });
    unitId = unit.id;
    tenantId = tenant.id;
    foreignUnitId = foreignUnit.id;
    feeId = fee.id;
    eventId = event.id;
    documentId = document.id;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(at));

  it('prices the move-in and answers the session and its documents with download URLs', async () => {
    const res = await review({ unitId, tenantId, moveInDate: '2026-07-20' });
    expect(res.errors).toBeUndefined();
    const answer = res.data!.reviewMoveInCost;
    const { sessionId } = answer;
    expect(sessionId).toMatch(UUID);
    const base = `/v1/${t.world.facility.id}/documents`;
    expect(answer).toEqual({
      sessionId,
      expiresAt: '2026-07-05T22:00:00-04:00',
      unitId,
      tenantId,
      moveInDate: '2026-07-20',
      cost: { rent: 80.25, fees: [{ id: feeId, description: 'Admin fee', amount: 20 }], total: 100.25 },
      documents: [
        {
          sessionDocumentId: expect.stringMatching(UUID),
          description: 'Rental agreement',
          type: 'PrintTemplate',
          isRelevant: true,
          esignable: true,
          createdAt: '2026-07-04T22:00:00-04:00',
          downloadUrl: `${base}/${answer.documents[0].sessionDocumentId}/session/${sessionId}`,
        },
        {
          sessionDocumentId: expect.stringMatching(UUID),
          description: 'Rules and regulations addendum',
          type: 'PrintTemplate',
          isRelevant: true,
          esignable: true,
          createdAt: '2026-07-04T22:00:00-04:00',
          downloadUrl: `${base}/${answer.documents[1].sessionDocumentId}/session/${sessionId}`,
        },
      ],
    });

    const pdf = await bearerGet(answer.documents[0].downloadUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(
      'between Main Street ("the Facility") and Grace Hopper ("the Tenant") for storage unit C-12',
    );
    expect(text).toContain('Total due at move-in: 100.25');
    t.clock.advance(24 * 60 * 60 * 1000);
    expect((await bearerGet(answer.documents[0].downloadUrl)).statusCode).toBe(410);
  });

  it('answers what REST answers for the same review', async () => {
    const graph = (await review({ unitId })).data!.reviewMoveInCost;
    const rest = (
      await t.postJson(`/v1/${t.world.facility.id}/move_ins/review_cost`, { move_in: { unit_id: unitId } })
    ).json().move_in;
    expect(graph).toMatchObject({
      expiresAt: rest.expires_at,
      unitId: rest.unit_id,
      tenantId: rest.tenant_id,
      moveInDate: '2026-07-04',
      cost: rest.cost,
    });
    expect(graph.documents.map((d) => [d.description, d.type, d.isRelevant, d.createdAt])).toEqual(
      rest.documents.map((d: Record<string, unknown>) => [
        d.description,
        d.type,
        d.is_relevant,
        d.created_at,
      ]),
    );
  });

  it('gives each event document the path its PDF downloads from', async () => {
    const res = await run(t, EventDocumentDownloads, { id: t.world.facility.id, eventId });
    expect(res.errors).toBeUndefined();
    const url = `/v1/${t.world.facility.id}/documents/${documentId}`;
    expect(res.data!.facility!.event!.documents.entries).toEqual([
      { id: documentId, description: 'Lease agreement', downloadUrl: url },
    ]);
    const pdf = await bearerGet(url);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain(
      'Lease between Main Street and Grace Hopper for unit C-12 on 2026-06-01.',
    );
  });

  it.each<[string, () => ReviewMoveInCostMutationVariables['input'], string, string]>([
    ['an unknown unit', () => ({ unitId: randomUUID() }), 'NOT_FOUND', 'input.unitId'],
    ["a unit of another company's facility", () => ({ unitId: foreignUnitId }), 'NOT_FOUND', 'input.unitId'],
    ['an unknown tenant', () => ({ unitId, tenantId: randomUUID() }), 'NOT_FOUND', 'input.tenantId'],
    [
      'a move-in date in the past',
      () => ({ unitId, moveInDate: '2026-07-03' }),
      'BAD_USER_INPUT',
      'input.moveInDate',
    ],
  ])(
    'answers %s with the code and the argument at fault, saving nothing',
    async (_label, input, code, parameter) => {
      const before = await sessionCount();
      const res = await review(input());
      expect(res.data).toBeNull();
      expect(codesOf(res)).toEqual([code]);
      expect(res.errors![0].extensions).toMatchObject({ parameter, errorCode: code === 'NOT_FOUND' ? 9 : 4 });
      expect(res.errors![0].message).toContain(parameter);
      expect(await sessionCount()).toBe(before);
    },
  );

  it.each<[string, Record<string, unknown>]>([
    ['a malformed unitId', { unitId: 'unit-1' }],
    ['a 10,000-character unitId', { unitId: 'x'.repeat(10_000) }],
    ['an SQL fragment as tenantId', { unitId: 'UNIT', tenantId: "1' OR '1'='1" }],
    ['no real date', { unitId: 'UNIT', moveInDate: '2026-02-30' }],
    ['a date-time as moveInDate', { unitId: 'UNIT', moveInDate: '2026-07-10T00:00:00Z' }],
    ['a number as moveInDate', { unitId: 'UNIT', moveInDate: 20260710 }],
    ['no unitId', { tenantId: 'TENANT' }],
  ])('answers BAD_USER_INPUT for %s, saving nothing', async (_label, raw) => {
    const input = JSON.parse(JSON.stringify(raw).replaceAll('UNIT', unitId).replaceAll('TENANT', tenantId));
    const before = await sessionCount();
    const res = await postGraphql(
      t.app,
      {
        query: ReviewMoveInCost.document,
        operationName: ReviewMoveInCost.operationName,
        variables: { facilityId: t.world.facility.id, input },
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors![0].message.length).toBeLessThan(1100);
    expect(await sessionCount()).toBe(before);
  });

  it('answers FORBIDDEN for a facility of another company and NOT_FOUND for an unknown one', async () => {
    const forbidden = await review({ unitId: foreignUnitId }, t.world.otherFacility.id);
    expect(codesOf(forbidden)).toEqual(['FORBIDDEN']);
    const unknown = await review({ unitId }, randomUUID());
    expect(codesOf(unknown)).toEqual(['NOT_FOUND']);
    expect(unknown.errors![0].extensions.parameter).toBe('facilityId');
  });

  it('answers 401 UNAUTHENTICATED without credentials, saving nothing', async () => {
    const before = await sessionCount();
    const res = await postGraphql(t.app, {
      query: ReviewMoveInCost.document,
      operationName: ReviewMoveInCost.operationName,
      variables: { facilityId: t.world.facility.id, input: { unitId } },
    });
    expect(res.status).toBe(401);
    expect(codesOf(res)).toEqual(['UNAUTHENTICATED']);
    expect(await sessionCount()).toBe(before);
  });
});
