import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { DatasetFacility } from '../../../src/store/dataset/dataset.types';
import { buildFacility, buildItem, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDialect('POST /v1/:facility_id/move_ins/review_cost', (dialect) => {
  let t: TestApp;
  let url: string;
  let sister: DatasetFacility;
  let unitId: string;
  let cheapUnitId: string;
  let tenantId: string;
  let sisterUnitId: string;
  let foreignUnitId: string;
  let foreignTenantId: string;
  let adminFeeId: string;
  let depositId: string;
  let keyFeeId: string;

  // 02:00 UTC on July 5th is 22:00 on July 4th in New York: "today" at the facility is the 4th.
  const at = new Date('2026-07-05T02:00:00Z');

  const counts = async () => {
    const db = t.db.store.db;
    const count = async (table: 'move_in_sessions' | 'session_documents' | 'events' | 'event_documents') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      sessions: await count('move_in_sessions'),
      documents: await count('session_documents'),
      events: await count('events'),
      eventDocuments: await count('event_documents'),
    };
  };

  const expectNothingWritten = async (before: Awaited<ReturnType<typeof counts>>) =>
    expect(await counts()).toEqual(before);

  const errorOf = (res: LightMyRequestResponse, status: number, errorCode: number | null) => {
    expect(res.statusCode).toBe(status);
    const meta = res.json().meta;
    expect(meta).toMatchObject({ status_code: status, error_code: errorCode });
    return meta as { message: string; errors: Array<{ parameter: string; message: string }> };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    url = `/v1/${facility.id}/move_ins/review_cost`;
    sister = buildFacility({ company_id: company.id, name: 'Sister Site' });
    const tenant = buildTenant({ facility_id: facility.id, first_name: 'Ada', last_name: 'Lovelace' });
    const unit = buildUnit({ facility_id: facility.id, name: 'A-101', rate: 99.5 });
    const cheapUnit = buildUnit({ facility_id: facility.id, name: 'Locker 3', rate: 15 });
    const sisterUnit = buildUnit({ facility_id: sister.id, name: 'S-1' });
    const foreignUnit = buildUnit({ facility_id: otherFacility.id, name: 'F-1' });
    const foreignTenant = buildTenant({ facility_id: otherFacility.id });
    const adminFee = buildItem({
      facility_id: facility.id,
      kind: 'fee',
      description: 'Admin fee',
      required_at_move_in: true,
      tax_total: 1.5,
      total: 26.5,
    });
    const deposit = buildItem({
      facility_id: facility.id,
      kind: 'fee',
      fee_category: 'security_deposit',
      description: 'security deposit',
      required_at_move_in: true,
      tax_total: 0,
      total: 50,
    });
    const keyFee = buildItem({
      facility_id: facility.id,
      kind: 'fee',
      description: 'Key card',
      required_at_move_in: true,
      tax_total: 0.4,
      total: 5.4,
    });
    await t.load({
      facilities: [sister],
      tenants: [tenant, foreignTenant],
      units: [unit, cheapUnit, sisterUnit, foreignUnit],
      invoiceable_items: [
        deposit,
        keyFee,
        adminFee,
        // None of these is charged at this facility's move-in.
        buildItem({
          facility_id: facility.id,
          kind: 'fee',
          description: 'Late fee',
          required_at_move_in: false,
        }),
        buildItem({
          facility_id: facility.id,
          kind: 'retail',
          description: 'Disc lock',
          required_at_move_in: true,
        }),
        buildItem({
          facility_id: facility.id,
          kind: 'insurance',
          description: 'Protection',
          required_at_move_in: true,
        }),
        buildItem({
          facility_id: sister.id,
          kind: 'fee',
          description: 'Sister admin fee',
          required_at_move_in: true,
        }),
        buildItem({
          facility_id: otherFacility.id,
          kind: 'fee',
          description: 'Foreign fee',
          required_at_move_in: true,
        }),
      ],
    });
    unitId = unit.id;
    cheapUnitId = cheapUnit.id;
    tenantId = tenant.id;
    sisterUnitId = sisterUnit.id;
    foreignUnitId = foreignUnit.id;
    foreignTenantId = foreignTenant.id;
    adminFeeId = adminFee.id;
    depositId = deposit.id;
    keyFeeId = keyFee.id;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(at));

  it('answers the cost, the session and its documents, and saves only the session', async () => {
    const before = await counts();
    const moveIn = { unit_id: unitId, tenant_id: tenantId, move_in_date: '2026-07-10' };
    const res = await t.postJson(url, { move_in: moveIn }, { 'x-request-id': 'review-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['move_in', 'meta']);
    expect(body.move_in).toEqual({
      session_id: expect.stringMatching(UUID),
      expires_at: '2026-07-05T22:00:00-04:00',
      unit_id: unitId,
      tenant_id: tenantId,
      move_in_date: '2026-07-10',
      cost: {
        rent: 99.5,
        fees: [
          { id: adminFeeId, description: 'Admin fee', amount: 26.5 },
          { id: keyFeeId, description: 'Key card', amount: 5.4 },
          { id: depositId, description: 'security deposit', amount: 50 },
        ],
        total: 181.4,
      },
      documents: [
        {
          session_document_id: expect.stringMatching(UUID),
          description: 'Rental agreement',
          type: 'PrintTemplate',
          is_relevant: true,
          created_at: '2026-07-04T22:00:00-04:00',
        },
        {
          session_document_id: expect.stringMatching(UUID),
          description: 'Rules and regulations addendum',
          type: 'PrintTemplate',
          is_relevant: true,
          created_at: '2026-07-04T22:00:00-04:00',
        },
      ],
    });
    expect(Object.keys(body.move_in)).toEqual([
      'session_id',
      'expires_at',
      'unit_id',
      'tenant_id',
      'move_in_date',
      'cost',
      'documents',
    ]);
    expect(body.meta).toEqual({
      status_code: 200,
      status_message: 'OK',
      status_cat: 'https://http.cat/200',
      request_method: 'POST',
      request_id: 'review-1',
      parameters: { move_in: moveIn, facility_id: t.world.facility.id },
    });
    expect(await counts()).toEqual({
      ...before,
      sessions: before.sessions + 1,
      documents: before.documents + 2,
    });
    const stored = await t.db.store.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', '=', body.move_in.session_id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      facility_id: t.world.facility.id,
      unit_id: unitId,
      tenant_id: tenantId,
      move_in_date: '2026-07-10',
      rent_cents: 9950,
      total_cents: 18140,
      created_at: '2026-07-05T02:00:00.000Z',
      expires_at: '2026-07-06T02:00:00.000Z',
    });
  });

  it("defaults move_in_date to the facility's today and takes no tenant", async () => {
    const res = await t.postJson(url, { move_in: { unit_id: cheapUnitId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().move_in).toMatchObject({
      unit_id: cheapUnitId,
      tenant_id: null,
      move_in_date: '2026-07-04',
      cost: { rent: 15, total: 96.9 },
    });
    expect(res.json().meta.parameters).toEqual({
      move_in: { unit_id: cheapUnitId },
      facility_id: t.world.facility.id,
    });
  });

  it('reads blank tenant_id and move_in_date as not given, and ids in upper case', async () => {
    const res = await t.postJson(url, {
      move_in: { unit_id: unitId.toUpperCase(), tenant_id: '', move_in_date: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().move_in).toMatchObject({
      unit_id: unitId,
      tenant_id: null,
      move_in_date: '2026-07-04',
    });
  });

  it('accepts today at the facility even where UTC is already tomorrow, and any later date', async () => {
    for (const date of ['2026-07-04', '2026-07-05', '2028-02-29']) {
      const res = await t.postJson(url, { move_in: { unit_id: unitId, move_in_date: date } });
      expect(res.statusCode).toBe(200);
      expect(res.json().move_in.move_in_date).toBe(date);
    }
  });

  it('makes a new session with new document ids for every review', async () => {
    const first = (await t.postJson(url, { move_in: { unit_id: unitId } })).json().move_in;
    const second = (await t.postJson(url, { move_in: { unit_id: unitId } })).json().move_in;
    expect(second.session_id).not.toBe(first.session_id);
    const ids = [...first.documents, ...second.documents].map(
      (d: { session_document_id: string }) => d.session_document_id,
    );
    expect(new Set(ids).size).toBe(4);
  });

  it('accepts a Rails-style form-encoded body signed with OAuth 1.0', async () => {
    t.clock.set(new Date());
    const data = {
      'move_in[unit_id]': unitId,
      'move_in[tenant_id]': tenantId,
      'move_in[move_in_date]': '2099-01-15',
    };
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: oauthHeader(t.world.client, { method: 'POST', url, data }),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(data).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().move_in).toMatchObject({
      unit_id: unitId,
      tenant_id: tenantId,
      move_in_date: '2099-01-15',
    });
    expect(res.json().meta.parameters).toEqual({
      move_in: { unit_id: unitId, tenant_id: tenantId, move_in_date: '2099-01-15' },
      facility_id: t.world.facility.id,
    });
  });

  const long = 'x'.repeat(10_000);
  it.each<[string, unknown, string]>([
    ['no move_in', {}, 'move_in'],
    ['move_in null', { move_in: null }, 'move_in'],
    ['move_in as a string', { move_in: 'UNIT' }, 'move_in'],
    ['move_in as a list', { move_in: ['UNIT'] }, 'move_in'],
    ['no unit_id', { move_in: { tenant_id: 'TENANT' } }, 'move_in.unit_id'],
    ['a blank unit_id', { move_in: { unit_id: '' } }, 'move_in.unit_id'],
    ['a numeric unit_id', { move_in: { unit_id: 12 } }, 'move_in.unit_id'],
    ['a unit_id hash', { move_in: { unit_id: { id: 'UNIT' } } }, 'move_in.unit_id'],
    ['a malformed unit_id', { move_in: { unit_id: 'unit-1' } }, 'move_in.unit_id'],
    ['an SQL fragment as unit_id', { move_in: { unit_id: "1' OR '1'='1" } }, 'move_in.unit_id'],
    ['a quoted unit_id', { move_in: { unit_id: '"UNIT"' } }, 'move_in.unit_id'],
    ['a 10,000-character unit_id', { move_in: { unit_id: long } }, 'move_in.unit_id'],
    ['a malformed tenant_id', { move_in: { unit_id: 'UNIT', tenant_id: 'ada' } }, 'move_in.tenant_id'],
    ['a 10,000-character tenant_id', { move_in: { unit_id: 'UNIT', tenant_id: long } }, 'move_in.tenant_id'],
    ['a numeric tenant_id', { move_in: { unit_id: 'UNIT', tenant_id: 7 } }, 'move_in.tenant_id'],
    [
      'a date in the past',
      { move_in: { unit_id: 'UNIT', move_in_date: '2026-07-03' } },
      'move_in.move_in_date',
    ],
    ['no real date', { move_in: { unit_id: 'UNIT', move_in_date: '2026-02-30' } }, 'move_in.move_in_date'],
    ['an unpadded date', { move_in: { unit_id: 'UNIT', move_in_date: '2026-7-14' } }, 'move_in.move_in_date'],
    ['a US date', { move_in: { unit_id: 'UNIT', move_in_date: '07/14/2026' } }, 'move_in.move_in_date'],
    [
      'a date-time',
      { move_in: { unit_id: 'UNIT', move_in_date: '2026-07-14T00:00:00Z' } },
      'move_in.move_in_date',
    ],
    ['a numeric date', { move_in: { unit_id: 'UNIT', move_in_date: 20260714 } }, 'move_in.move_in_date'],
    ['a 10,000-character date', { move_in: { unit_id: 'UNIT', move_in_date: long } }, 'move_in.move_in_date'],
    [
      'an SQL fragment as date',
      { move_in: { unit_id: 'UNIT', move_in_date: "2026-07-14'; --" } },
      'move_in.move_in_date',
    ],
    ['a list as body', ['move_in'], 'body'],
  ])('answers 400/4 naming the parameter and writes nothing for %s', async (_label, rawBody, parameter) => {
    const body = JSON.parse(
      JSON.stringify(rawBody).replaceAll('UNIT', unitId).replaceAll('TENANT', tenantId),
    );
    const before = await counts();
    const meta = errorOf(await t.postJson(url, body), 400, 4);
    expect(meta.errors.map((e) => e.parameter)).toContain(parameter);
    expect(meta.message).toContain(parameter);
    expect(meta.message.length).toBeLessThan(500);
    await expectNothingWritten(before);
  });

  it('names every bad field at once', async () => {
    const meta = errorOf(
      await t.postJson(url, { move_in: { unit_id: 'u', tenant_id: 't', move_in_date: '2020-01-01' } }),
      400,
      4,
    );
    expect(meta.errors).toEqual([
      { parameter: 'move_in.unit_id', message: 'must be a UUID' },
      { parameter: 'move_in.tenant_id', message: 'must be a UUID' },
      { parameter: 'move_in.move_in_date', message: 'must not be in the past (today is 2026-07-04)' },
    ]);
  });

  it('answers 400/4 naming body for malformed JSON, an empty body and a bad form body, writing nothing', async () => {
    const before = await counts();
    const headers = { authorization: `Bearer ${t.world.client.bearer_token}` };
    const malformed = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"move_in": {"unit_id": ',
    });
    expect(errorOf(malformed, 400, 4).errors).toEqual([{ parameter: 'body', message: 'is not valid JSON' }]);
    const empty = await t.app.inject({ method: 'POST', url, headers });
    expect(errorOf(empty, 400, 4).errors.map((e) => e.parameter)).toEqual(['body']);
    const form = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `move_in[unit_id]=${unitId}&move_in[move_in_date]=tomorrow`,
    });
    expect(errorOf(form, 400, 4).errors.map((e) => e.parameter)).toEqual(['move_in.move_in_date']);
    await expectNothingWritten(before);
  });

  it.each([
    ['an unknown unit', () => ({ unit_id: randomUUID() }), 'move_in.unit_id'],
    ['a unit of a sister facility', () => ({ unit_id: sisterUnitId }), 'move_in.unit_id'],
    ["a unit of another company's facility", () => ({ unit_id: foreignUnitId }), 'move_in.unit_id'],
    ['an unknown tenant', () => ({ unit_id: unitId, tenant_id: randomUUID() }), 'move_in.tenant_id'],
    [
      "a tenant of another company's facility",
      () => ({ unit_id: unitId, tenant_id: foreignTenantId }),
      'move_in.tenant_id',
    ],
  ])('answers 404/9 naming the id for %s, writing nothing', async (_label, moveIn, parameter) => {
    const before = await counts();
    const meta = errorOf(await t.postJson(url, { move_in: moveIn() }), 404, 9);
    expect(meta.errors).toEqual([
      { parameter, message: expect.stringMatching(/^no (unit|tenant) with this id$/) },
    ]);
    expect(meta.message).toContain(parameter);
    await expectNothingWritten(before);
  });

  it('answers 401/2 without credentials or with an unknown token, writing nothing', async () => {
    const before = await counts();
    const none = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ move_in: { unit_id: unitId } }),
    });
    errorOf(none, 401, 2);
    errorOf(
      await t.postJson(url, { move_in: { unit_id: unitId } }, { authorization: 'Bearer nope' }),
      401,
      2,
    );
    await expectNothingWritten(before);
  });

  it('answers 403/13 for a facility of another company, writing nothing', async () => {
    const before = await counts();
    const res = await t.postJson(`/v1/${t.world.otherFacility.id}/move_ins/review_cost`, {
      move_in: { unit_id: foreignUnitId },
    });
    errorOf(res, 403, 13);
    await expectNothingWritten(before);
  });

  it('answers 404/9 naming facility_id for an unknown or malformed facility', async () => {
    for (const facilityId of [randomUUID(), 'main-street']) {
      const meta = errorOf(
        await t.postJson(`/v1/${facilityId}/move_ins/review_cost`, { move_in: { unit_id: unitId } }),
        404,
        9,
      );
      expect(meta.errors.map((e) => e.parameter)).toEqual(['facility_id']);
    }
  });

  it('answers 405 in the envelope for GET', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    errorOf(res, 405, null);
  });
});
