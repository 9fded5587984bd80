import { randomUUID } from 'node:crypto';
import { localDate } from '../../../src/kernel/time';
import { buildLedger, buildRateAppliedAction, buildTenant, buildUnit } from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';

describeEachDialect('GET /v1/:facility_id/rate_applied_actions', (dialect) => {
  let t: TestApp;
  let url: string;
  const ids = {
    early: randomUUID(),
    full: randomUUID(),
    tieA: 'aaaaaaaa-0000-4000-8000-000000000001',
    tieB: 'aaaaaaaa-0000-4000-8000-000000000002',
    before: randomUUID(),
    after: randomUUID(),
    foreign: randomUUID(),
  };
  let ledgerId: string;
  let oldLedgerId: string;
  let unitId: string;
  let leadId: string;
  let userId: string;

  // 03:00 UTC on the 21st is still the 20th in New York, the facility's zone.
  const facilityEvening = new Date('2026-11-21T03:00:00Z');

  /** GET with the bearer token, which does not depend on the clock the way OAuth timestamps do. */
  const get = (path: string) =>
    t.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    url = `/v1/${facility.id}/rate_applied_actions`;
    const tenant = buildTenant({ facility_id: facility.id });
    const unit = buildUnit({ facility_id: facility.id });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    const oldLedger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
    const otherTenant = buildTenant({ facility_id: otherFacility.id });
    const otherUnit = buildUnit({ facility_id: otherFacility.id });
    const otherLedger = buildLedger({
      facility_id: otherFacility.id,
      tenant_id: otherTenant.id,
      unit_id: otherUnit.id,
    });
    ledgerId = ledger.id;
    oldLedgerId = oldLedger.id;
    unitId = unit.id;
    leadId = randomUUID();
    userId = randomUUID();
    const own = { facility_id: facility.id, new_ledger_id: ledger.id, unit_id: unit.id };
    await t.load({
      tenants: [tenant, otherTenant],
      units: [unit, otherUnit],
      ledgers: [ledger, oldLedger, otherLedger],
      rate_applied_actions: [
        buildRateAppliedAction({
          ...own,
          id: ids.full,
          rate_info: { applied_rate: { name: 'Spring special', amount: 89.99 }, standard_rate: 99.5 },
          source: 'Sales Center',
          completed_on: '2026-11-20',
          completed_by: 'Jane Clerk',
          employee_id: 'E-17',
          user_id: userId,
          time_completed: '2026-11-20T15:00:00Z',
          old_ledger_id: oldLedger.id,
          lead_id: leadId,
        }),
        buildRateAppliedAction({
          ...own,
          id: ids.tieB,
          completed_on: '2026-11-20',
          time_completed: '2026-11-20T16:00:00Z',
        }),
        buildRateAppliedAction({
          ...own,
          id: ids.tieA,
          completed_on: '2026-11-20',
          time_completed: '2026-11-20T16:00:00Z',
        }),
        buildRateAppliedAction({
          ...own,
          id: ids.early,
          completed_on: '2026-11-20',
          time_completed: '2026-11-20T14:00:00Z',
        }),
        buildRateAppliedAction({
          ...own,
          id: ids.before,
          completed_on: '2026-11-18',
          time_completed: '2026-11-18T20:00:00Z',
        }),
        buildRateAppliedAction({
          ...own,
          id: ids.after,
          completed_on: '2026-11-21',
          time_completed: '2026-11-21T13:00:00Z',
        }),
        buildRateAppliedAction({
          id: ids.foreign,
          facility_id: otherFacility.id,
          new_ledger_id: otherLedger.id,
          unit_id: otherUnit.id,
          completed_on: '2026-11-20',
        }),
      ],
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(facilityEvening));

  const timesOf = (body: { rate_applied_actions: Array<{ time_completed: string }> }) =>
    body.rate_applied_actions.map((a) => a.time_completed);

  it("defaults both dates to today in the facility's zone, with every field of 2.3 in order", async () => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['rate_applied_actions', 'meta']);
    expect(timesOf(body)).toEqual([
      '2026-11-20T09:00:00-05:00',
      '2026-11-20T10:00:00-05:00',
      '2026-11-20T11:00:00-05:00',
      '2026-11-20T11:00:00-05:00',
    ]);
    const full = body.rate_applied_actions[1];
    expect(full).toEqual({
      rate_info: { applied_rate: { name: 'Spring special', amount: 89.99 }, standard_rate: 99.5 },
      source: 'Sales Center',
      completed_on: '2026-11-20',
      completed_by: 'Jane Clerk',
      employee_id: 'E-17',
      user_id: userId,
      time_completed: '2026-11-20T10:00:00-05:00',
      event: 'MoveInUnitEvent',
      old_ledger_id: oldLedgerId,
      new_ledger_id: ledgerId,
      unit_id: unitId,
      lead_id: leadId,
    });
    expect(Object.keys(full)).toEqual([
      'rate_info',
      'source',
      'completed_on',
      'completed_by',
      'employee_id',
      'user_id',
      'time_completed',
      'event',
      'old_ledger_id',
      'new_ledger_id',
      'unit_id',
      'lead_id',
    ]);
    expect(body.rate_applied_actions[0]).toMatchObject({
      completed_by: '',
      employee_id: '',
      user_id: '',
      old_ledger_id: '',
    });
    expect(body.meta.parameters).toEqual({
      end_date: '2026-11-20',
      start_date: '2026-11-20',
      facility_id: t.world.facility.id,
      rate_applied_action: {},
    });
    expect(Object.keys(body.meta.parameters)).toEqual([
      'end_date',
      'start_date',
      'facility_id',
      'rate_applied_action',
    ]);
  });

  // The contract shows no id, so the tied actions are told apart by their lead ids.
  it('breaks ties of time_completed by id', async () => {
    const res = await get(url);
    const rows = await t.db.store.db
      .selectFrom('rate_applied_actions')
      .select(['id', 'lead_id'])
      .where('id', 'in', [ids.tieA, ids.tieB])
      .execute();
    const leadOf = new Map(rows.map((r) => [r.id, r.lead_id]));
    const tied = res
      .json()
      .rate_applied_actions.slice(2)
      .map((a: { lead_id: string }) => a.lead_id);
    expect(tied).toEqual([leadOf.get(ids.tieA), leadOf.get(ids.tieB)]);
  });

  it('includes both ends of an explicit range and echoes the dates as given', async () => {
    const res = await get(`${url}?start_date=2026-11-18&end_date=2026-11-21`);
    expect(res.statusCode).toBe(200);
    expect(timesOf(res.json())).toEqual([
      '2026-11-18T15:00:00-05:00',
      '2026-11-20T09:00:00-05:00',
      '2026-11-20T10:00:00-05:00',
      '2026-11-20T11:00:00-05:00',
      '2026-11-20T11:00:00-05:00',
      '2026-11-21T08:00:00-05:00',
    ]);
    expect(res.json().meta.parameters).toEqual({
      start_date: '2026-11-18',
      end_date: '2026-11-21',
      facility_id: t.world.facility.id,
      rate_applied_action: {},
    });
  });

  it('defaults only the date that is missing, and echoes the default used', async () => {
    const res = await get(`${url}?start_date=2026-11-19`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rate_applied_actions).toHaveLength(4);
    expect(res.json().meta.parameters).toEqual({
      start_date: '2026-11-19',
      end_date: '2026-11-20',
      facility_id: t.world.facility.id,
      rate_applied_action: {},
    });
    const onlyEnd = await get(`${url}?end_date=2026-11-21`);
    expect(onlyEnd.statusCode).toBe(200);
    expect(timesOf(onlyEnd.json())).toHaveLength(5);
    expect(onlyEnd.json().meta.parameters).toMatchObject({
      end_date: '2026-11-21',
      start_date: '2026-11-20',
    });
  });

  it("moves today with the facility's clock", async () => {
    t.clock.set(new Date('2026-11-21T05:00:00Z'));
    const res = await get(url);
    expect(timesOf(res.json())).toEqual(['2026-11-21T08:00:00-05:00']);
    expect(res.json().meta.parameters).toMatchObject({ start_date: '2026-11-21', end_date: '2026-11-21' });
  });

  it('answers an empty list for a range without actions, never those of another facility', async () => {
    const res = await get(`${url}?start_date=2025-01-01&end_date=2025-12-31`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rate_applied_actions).toEqual([]);
    const other = await t.app.inject({
      method: 'GET',
      url: `/v1/${t.world.otherFacility.id}/rate_applied_actions?start_date=2026-11-20&end_date=2026-11-20`,
      headers: { authorization: `Bearer ${t.world.otherClient.bearer_token}` },
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().rate_applied_actions).toHaveLength(1);
  });

  it('accepts an OAuth 1.0 signed request with the query string signed', async () => {
    const now = new Date();
    t.clock.set(now);
    const today = localDate(now, t.world.facility.time_zone!);
    const res = await t.get(`${url}?start_date=2026-11-18&end_date=${today}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.parameters).toMatchObject({ start_date: '2026-11-18', end_date: today });
  });

  it.each([
    ['an impossible date', 'start_date', '2026-02-30'],
    ['a month 13', 'end_date', '2026-13-01'],
    ['a word', 'start_date', 'yesterday'],
    ['an unpadded date', 'end_date', '2026-1-5'],
    ['a date-time', 'start_date', '2026-11-20T00:00:00Z'],
    ['an empty value', 'start_date', ''],
    ['an SQL fragment', 'end_date', encodeURIComponent("2026-11-20' OR '1'='1")],
    ['a quote', 'start_date', '%22'],
    ['10,000 characters', 'end_date', 'x'.repeat(10_000)],
  ])('answers 400/4 naming the parameter for %s', async (_label, name, value) => {
    const res = await get(`${url}?${name}=${value}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({
      status_code: 400,
      error_code: 4,
      errors: [{ parameter: name }],
    });
    expect(res.json().meta.message).toContain(name);
  });

  it('answers 400/4 naming the parameter for a list or a hash in place of a date', async () => {
    const list = await get(`${url}?start_date[]=2026-11-20`);
    expect(list.statusCode).toBe(400);
    expect(list.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'start_date' }] });
    const hash = await get(`${url}?end_date[day]=20`);
    expect(hash.statusCode).toBe(400);
    expect(hash.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'end_date' }] });
  });

  it('names both dates when both are malformed', async () => {
    const res = await get(`${url}?start_date=nope&end_date=2026-02-29`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta.errors.map((e: { parameter: string }) => e.parameter)).toEqual([
      'start_date',
      'end_date',
    ]);
  });

  it('answers 400/4 naming start_date when it is after end_date, also against a default', async () => {
    const res = await get(`${url}?start_date=2026-11-21&end_date=2026-11-20`);
    expect(res.statusCode).toBe(400);
    expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'start_date' }] });
    const pastToday = await get(`${url}?start_date=2026-11-21`);
    expect(pastToday.statusCode).toBe(400);
    expect(pastToday.json().meta.errors[0].parameter).toBe('start_date');
  });

  it('answers 401/2 without credentials and with a bad signature', async () => {
    t.clock.set(new Date());
    const none = await t.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    expect(none.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
    const header = oauthHeader(
      { consumer_key: t.world.client.consumer_key, consumer_secret: 'not-the-secret' },
      { method: 'GET', url },
    );
    const forged = await t.app.inject({ method: 'GET', url, headers: { authorization: header } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().meta.error_code).toBe(2);
  });

  it('answers 403/13 for a facility of another company', async () => {
    const res = await get(`/v1/${t.world.otherFacility.id}/rate_applied_actions`);
    expect(res.statusCode).toBe(403);
    expect(res.json().meta).toMatchObject({ error_code: 13 });
  });

  it.each([
    ['an unknown id', randomUUID()],
    ['a malformed id', "1'%20OR%20'1'='1"],
  ])('answers 404/9 naming facility_id for %s', async (_label, id) => {
    const res = await get(`/v1/${id}/rate_applied_actions`);
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
  });
});
