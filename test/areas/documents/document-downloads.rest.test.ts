import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { DatasetEventDocument, DatasetFacility } from '../../../src/store/dataset/dataset.types';
import {
  buildDocument,
  buildEvent,
  buildFacility,
  buildItem,
  buildLedger,
  buildTenant,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { pdfPageCount, pdfText } from '../../support/pdf-text';

const DAY_MS = 24 * 60 * 60 * 1000;

function expectPdf(res: LightMyRequestResponse, filename: string): string {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(res.rawPayload.subarray(-6).toString('latin1')).toContain('%%EOF');
  return pdfText(res.rawPayload);
}

function expectError(
  res: LightMyRequestResponse,
  status: number,
  errorCode: number | null,
  parameter?: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const meta = res.json().meta;
  expect(meta).toMatchObject({ status_code: status, error_code: errorCode });
  if (parameter) {
    expect(meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual([parameter]);
    expect(meta.message).toContain(parameter);
  }
  return meta;
}

describeEachDialect('GET /v1/:facility_id/documents/:id', (dialect) => {
  let t: TestApp;
  let sister: DatasetFacility;
  let lease: DatasetEventDocument;
  let noLedgerDoc: DatasetEventDocument;
  let paymentReceipt: DatasetEventDocument;
  let longDoc: DatasetEventDocument;
  let sisterDoc: DatasetEventDocument;
  let foreignDoc: DatasetEventDocument;
  let unitId: string;
  const url = (id: string, facilityId = t.world.facility.id) => `/v1/${facilityId}/documents/${id}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    sister = buildFacility({ company_id: company.id, name: 'Sister Site', time_zone: 'Europe/Berlin' });
    const tenant = buildTenant({ facility_id: facility.id, first_name: 'Ada', last_name: 'Lovelace' });
    const payer = buildTenant({ facility_id: facility.id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facility.id, name: 'A-101' });
    unitId = unit.id;
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    // 03:30 UTC on the 21st is still the 20th in New York.
    const moveIn = buildEvent({
      facility_id: facility.id,
      ledger_id: ledger.id,
      created_at: '2026-11-21T03:30:00Z',
    });
    const bare = buildEvent({
      facility_id: facility.id,
      type: 'move_out_unit_event',
      created_at: '2026-07-04T12:00:00Z',
    });
    const payment = buildEvent({
      facility_id: facility.id,
      type: 'successful_payment_event',
      created_at: '2026-03-10T15:00:00Z',
    });
    const sisterEvent = buildEvent({ facility_id: sister.id });
    const foreignEvent = buildEvent({ facility_id: otherFacility.id });
    lease = buildDocument({ event_id: moveIn.id, description: 'Lease Agreement (signed)' });
    noLedgerDoc = buildDocument({
      event_id: bare.id,
      description: 'Move-out inspection',
      body: 'Tenant: {{tenant_name}}\nUnit: {{ unit_name }}\nFacility: {{FACILITY_NAME}}\nDate: {{date}}\nGate: {{gate_code}}',
    });
    paymentReceipt = buildDocument({
      event_id: payment.id,
      description: 'Receipt',
      type: 'Receipt',
      body: 'Received from {{tenant_name}} on {{date}} at {{facility_name}}.',
    });
    longDoc = buildDocument({
      event_id: moveIn.id,
      description: 'Rules',
      body: Array.from(
        { length: 40 },
        (_, i) => `Rule ${i + 1}: {{tenant_name}} keeps unit {{unit_name}} tidy.`,
      ).join('\n\n'),
    });
    sisterDoc = buildDocument({ event_id: sisterEvent.id, description: 'Sister lease' });
    foreignDoc = buildDocument({ event_id: foreignEvent.id, description: 'Foreign lease' });
    await t.load({
      facilities: [sister],
      tenants: [tenant, payer],
      units: [unit],
      ledgers: [ledger],
      events: [moveIn, bare, payment, sisterEvent, foreignEvent],
      event_documents: [lease, noLedgerDoc, paymentReceipt, longDoc, sisterDoc, foreignDoc],
    });
    // A payment names its tenant itself when its event has no ledger.
    const db = t.db.store.db;
    const methodId = randomUUID();
    await db
      .insertInto('payment_methods')
      .values({
        id: methodId,
        facility_id: facility.id,
        tenant_id: payer.id,
        kind: 'cash',
        first_name: 'Grace',
        last_name: 'Hopper',
        reuseable: 0,
        card_last4: null,
        card_type: null,
        expiration_date: null,
        billing_address: null,
        created_at: '2026-03-10T15:00:00.000Z',
      })
      .execute();
    await db
      .insertInto('payments')
      .values({
        id: payment.id,
        facility_id: facility.id,
        tenant_id: payer.id,
        payment_method_id: methodId,
        amount_cents: 1000,
        change_due_cents: 0,
        success: 1,
        paid_at: '2026-03-10T15:00:00.000Z',
        gateway_reference: null,
      })
      .execute();
  });
  afterAll(() => t.close());

  it('answers a PDF with the tenant, unit, facility and event date filled in under a facility header', async () => {
    const res = await t.get(url(lease.id));
    const text = expectPdf(res, 'lease-agreement-signed.pdf');
    expect(text).toContain('Main Street');
    expect(text).toContain('Lease Agreement (signed)');
    expect(text).toContain('Lease between Main Street and Ada Lovelace for unit A-101 on 2026-11-20.');
    expect(text).not.toContain('{{');
    expect(text.indexOf('Main Street')).toBeLessThan(text.indexOf('Lease Agreement'));
  });

  it('renders the same document to the same bytes', async () => {
    const first = await t.get(url(lease.id));
    const second = await t.get(url(lease.id.toUpperCase()));
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('writes a dash for values the event does not have and for unknown placeholders', async () => {
    const text = expectPdf(await t.get(url(noLedgerDoc.id)), 'move-out-inspection.pdf');
    expect(text).toContain('Tenant: — Unit: — Facility: Main Street Date: 2026-07-04 Gate: —');
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it("fills in a payment's own tenant when its event has no ledger", async () => {
    const text = expectPdf(await t.get(url(paymentReceipt.id)), 'receipt.pdf');
    expect(text).toContain('Received from Grace Hopper on 2026-03-10 at Main Street.');
  });

  it('flows a long document over several pages, each with the facility header', async () => {
    const res = await t.get(url(longDoc.id));
    const text = expectPdf(res, 'rules.pdf');
    const pages = pdfPageCount(res.rawPayload);
    expect(pages).toBeGreaterThan(1);
    expect(text.split('Main Street').length - 1).toBeGreaterThanOrEqual(pages);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('Rule 40: Ada Lovelace keeps unit A-101 tidy.');
  });

  it.each([
    ['an unknown id', () => randomUUID()],
    ['a malformed id', () => 'lease-1'],
    ['an SQL fragment', () => encodeURIComponent("1' OR '1'='1")],
    ['a quoted id', () => encodeURIComponent('"lease"')],
    ['a 4,000-character id', () => 'x'.repeat(4000)],
    ['a document of a sister facility', () => sisterDoc.id],
    ["a document of another company's facility", () => foreignDoc.id],
  ])('answers 404/9 naming id for %s', async (_label, id) => {
    expectError(await t.get(url(id())), 404, 9, 'id');
  });

  it('answers 404/9 for a session_document_id, and for a session id', async () => {
    const review = await t.postJson(`/v1/${t.world.facility.id}/move_ins/review_cost`, {
      move_in: { unit_id: unitId },
    });
    expect(review.statusCode).toBe(200);
    const { session_id: sessionId, documents } = review.json().move_in;
    const sessionDocumentId = documents[0].session_document_id;
    expect(
      (await t.get(`/v1/${t.world.facility.id}/documents/${sessionDocumentId}/session/${sessionId}`))
        .statusCode,
    ).toBe(200);
    expectError(await t.get(url(sessionDocumentId)), 404, 9, 'id');
    expectError(await t.get(url(sessionId)), 404, 9, 'id');
  });

  it('answers 404/9 for a document of the sister facility asked for under its own facility id only', async () => {
    expect((await t.get(url(sisterDoc.id, sister.id))).statusCode).toBe(200);
    expectError(await t.get(url(lease.id, sister.id)), 404, 9, 'id');
  });

  it('answers 414 in the envelope for a 10,000-character id (longer than any path parameter)', async () => {
    expectError(await t.get(url('x'.repeat(10_000))), 414, null);
  });

  it('answers 400/4 naming id for an empty id', async () => {
    expectError(await t.get(`/v1/${t.world.facility.id}/documents/`), 400, 4, 'id');
  });

  it('answers 401/2 without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(lease.id) });
    expectError(res, 401, 2);
  });

  it('answers 403/13 for a facility of another company', async () => {
    expectError(await t.get(url(foreignDoc.id, t.world.otherFacility.id)), 403, 13);
  });

  it('answers 404/9 naming facility_id for an unknown or malformed facility', async () => {
    expectError(await t.get(url(lease.id, randomUUID())), 404, 9, 'facility_id');
    expectError(await t.get(url(lease.id, 'main-street')), 404, 9, 'facility_id');
  });

  it('answers 405 in the envelope for another method', async () => {
    const res = await t.postJson(url(lease.id), {});
    expectError(res, 405, null);
    expect(res.headers.allow).toBe('GET');
  });
});

describeEachDialect('GET /v1/:facility_id/documents/:session_document_id/session/:session_id', (dialect) => {
  let t: TestApp;
  let sister: DatasetFacility;
  let unitId: string;
  let tenantId: string;
  let sisterUnitId: string;
  const reviewedAt = new Date('2026-07-04T16:30:00Z');
  const url = (documentId: string, sessionId: string, facilityId = t.world.facility.id) =>
    `/v1/${facilityId}/documents/${documentId}/session/${sessionId}`;

  interface Review {
    session_id: string;
    documents: Array<{ session_document_id: string; description: string }>;
  }
  const review = async (facilityId: string, moveIn: Record<string, string>): Promise<Review> => {
    const res = await t.postJson(`/v1/${facilityId}/move_ins/review_cost`, { move_in: moveIn });
    expect(res.statusCode).toBe(200);
    return res.json().move_in;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility } = t.world;
    sister = buildFacility({ company_id: company.id, name: 'Sister Site' });
    const tenant = buildTenant({ facility_id: facility.id, first_name: 'Zoë', last_name: "O'Neil" });
    const unit = buildUnit({ facility_id: facility.id, name: 'B-7', rate: 120 });
    const sisterUnit = buildUnit({ facility_id: sister.id, name: 'S-1' });
    const keyFee = buildItem({
      facility_id: facility.id,
      kind: 'fee',
      description: 'Key card',
      required_at_move_in: true,
      tax_total: 0,
      total: 5,
    });
    await t.load({
      facilities: [sister],
      tenants: [tenant],
      units: [unit, sisterUnit],
      invoiceable_items: [keyFee],
    });
    unitId = unit.id;
    tenantId = tenant.id;
    sisterUnitId = sisterUnit.id;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(reviewedAt));
  // The clock stands at the review time, outside any OAuth timestamp window: these use the bearer token.
  const get = (path: string) =>
    t.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });

  it('answers each move-in document as a PDF with the names, the move-in date and the cost', async () => {
    const session = await review(t.world.facility.id, {
      unit_id: unitId,
      tenant_id: tenantId,
      move_in_date: '2026-07-10',
    });
    const [agreement, addendum] = session.documents;
    const text = expectPdf(
      await get(url(agreement.session_document_id, session.session_id)),
      'rental-agreement.pdf',
    );
    expect(text).toContain('Main Street');
    expect(text).toContain('Rental agreement');
    expect(text).toContain(
      `between Main Street ("the Facility") and Zoë O'Neil ("the Tenant") for storage unit B-7`,
    );
    expect(text).toContain('The rental begins on 2026-07-10');
    expect(text).toContain('The monthly rent for unit B-7 is 120.00');
    expect(text).toContain('Total due at move-in: 125.00');
    expect(text).not.toContain('{{');
    const addendumText = expectPdf(
      await get(url(addendum.session_document_id, session.session_id)),
      'rules-and-regulations-addendum.pdf',
    );
    expect(addendumText).toContain(
      "rental agreement of 2026-07-10 between Main Street and Zoë O'Neil for unit B-7",
    );
  });

  it("lists the first month's rent indented like the fee lines under it", async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId, move_in_date: '2026-07-10' });
    const res = await get(url(session.documents[0].session_document_id, session.session_id));
    const layout = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], {
      input: res.rawPayload,
    }).toString();
    const charges = layout
      .split('\n')
      .filter((line) => /(First month's rent|Key card): /.test(line))
      .map((line) => ({ text: line.trim(), indent: line.length - line.trimStart().length }));
    expect(charges.map((c) => c.text)).toEqual(["First month's rent: 120.00", 'Key card: 5.00']);
    const heading = layout.split('\n').find((line) => line.includes('Charges due at move-in:'))!;
    // Both deeper than the heading they stand under, and at the same depth.
    expect(charges[0].indent).toBe(charges[1].indent);
    expect(charges[0].indent).toBeGreaterThan(heading.length - heading.trimStart().length);
  });

  it('writes a dash where a review names no tenant', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    const text = pdfText(
      (await get(url(session.documents[0].session_document_id, session.session_id))).rawPayload,
    );
    expect(text).toContain('between Main Street ("the Facility") and — ("the Tenant") for storage unit B-7');
    expect(text).toContain('The rental begins on 2026-07-04');
  });

  it('answers until 24 hours after the review, then 410 with error_code null', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    const documentUrl = url(session.documents[1].session_document_id, session.session_id);
    t.clock.advance(DAY_MS - 1);
    expect((await get(documentUrl)).statusCode).toBe(200);
    t.clock.advance(1);
    const meta = expectError(await get(documentUrl), 410, null, 'session_id');
    expect(meta.status_message).toBe('Gone');
    expect(meta.status_cat).toBe('https://http.cat/410');
    expect(meta.message).toBe('session_id: the move-in session expired at 2026-07-05T12:30:00-04:00');
    t.clock.advance(30 * DAY_MS);
    expectError(await get(documentUrl), 410, null, 'session_id');
  });

  it('answers 404/9 for a wrong pair, naming session_document_id', async () => {
    const first = await review(t.world.facility.id, { unit_id: unitId });
    const second = await review(t.world.facility.id, { unit_id: unitId });
    expectError(
      await get(url(first.documents[0].session_document_id, second.session_id)),
      404,
      9,
      'session_document_id',
    );
    // Swapped ids name no session.
    expectError(
      await get(url(first.session_id, first.documents[0].session_document_id)),
      404,
      9,
      'session_id',
    );
  });

  it('answers 404 for a wrong pair after expiry too, rather than 410', async () => {
    const first = await review(t.world.facility.id, { unit_id: unitId });
    const second = await review(t.world.facility.id, { unit_id: unitId });
    t.clock.advance(2 * DAY_MS);
    expectError(
      await get(url(first.documents[0].session_document_id, second.session_id)),
      404,
      9,
      'session_document_id',
    );
  });

  it('answers 404/9 for a session of another facility of the same company', async () => {
    const session = await review(sister.id, { unit_id: sisterUnitId });
    const documentId = session.documents[0].session_document_id;
    expect((await get(url(documentId, session.session_id, sister.id))).statusCode).toBe(200);
    expectError(await get(url(documentId, session.session_id)), 404, 9, 'session_id');
  });

  it('finds a session by ids spelled in upper case', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    const res = await get(
      url(session.documents[0].session_document_id.toUpperCase(), session.session_id.toUpperCase()),
    );
    expect(res.statusCode).toBe(200);
  });

  it.each<[string, (s: Review) => [string, string], string]>([
    ['an unknown session', (s) => [s.documents[0].session_document_id, randomUUID()], 'session_id'],
    ['an unknown session document', (s) => [randomUUID(), s.session_id], 'session_document_id'],
    ['a malformed session id', (s) => [s.documents[0].session_document_id, 'session-1'], 'session_id'],
    ['a malformed document id', (s) => ['doc"; --', s.session_id], 'session_document_id'],
    [
      'an SQL fragment as session id',
      (s) => [s.documents[0].session_document_id, encodeURIComponent("x' OR 1=1 --")],
      'session_id',
    ],
    [
      'a 4,000-character session id',
      (s) => [s.documents[0].session_document_id, 's'.repeat(4000)],
      'session_id',
    ],
    ['an event document id', () => [randomUUID(), randomUUID()], 'session_id'],
  ])('answers 404/9 for %s', async (_label, ids, parameter) => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    const [documentId, sessionId] = ids(session);
    expectError(await get(url(documentId, sessionId)), 404, 9, parameter);
  });

  it('answers 414 in the envelope for a 10,000-character session id', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    expectError(await get(url(session.documents[0].session_document_id, 's'.repeat(10_000))), 414, null);
  });

  it('answers 400/4 for an empty id', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    expectError(await get(url(session.documents[0].session_document_id, '')), 400, 4, 'session_id');
    expectError(await get(url('', session.session_id)), 400, 4, 'session_document_id');
  });

  it('answers 401/2 without credentials or with a bad signature', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    const documentUrl = url(session.documents[0].session_document_id, session.session_id);
    expectError(await t.app.inject({ method: 'GET', url: documentUrl }), 401, 2);
    const res = await t.app.inject({
      method: 'GET',
      url: documentUrl,
      headers: { authorization: `Bearer ${'z'.repeat(40)}` },
    });
    expectError(res, 401, 2);
  });

  it('answers 403/13 for a facility of another company', async () => {
    expectError(await get(url(randomUUID(), randomUUID(), t.world.otherFacility.id)), 403, 13);
  });

  it('answers 404/9 naming facility_id for an unknown facility', async () => {
    const session = await review(t.world.facility.id, { unit_id: unitId });
    expectError(
      await get(url(session.documents[0].session_document_id, session.session_id, randomUUID())),
      404,
      9,
      'facility_id',
    );
  });
});
