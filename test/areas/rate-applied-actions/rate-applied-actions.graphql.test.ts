import { randomUUID } from 'node:crypto';
import type {
  RateAppliedActionsGraphQuery,
  RateAppliedActionsGraphQueryVariables,
  RateAppliedActionsQuery,
  RateAppliedActionsQueryVariables,
} from '../../generated/graphql';
import {
  buildInsurance,
  buildLedger,
  buildRateAppliedAction,
  buildService,
  buildTenant,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, type TestApp } from '../../support/http';
import { codesOf, operation, postGraphql, run } from '../../graphql/graphql-client';
import { camelize } from '../../graphql/rest-compare';

const Actions = operation<RateAppliedActionsQuery, RateAppliedActionsQueryVariables>(
  'rate-applied-actions.graphql',
  'RateAppliedActions',
);
const Graph = operation<RateAppliedActionsGraphQuery, RateAppliedActionsGraphQueryVariables>(
  'rate-applied-actions.graphql',
  'RateAppliedActionsGraph',
);

// 03:00 UTC on the 21st is still the 20th in New York, the facility's zone.
const FACILITY_EVENING = new Date('2026-11-21T03:00:00Z');

describeEachDialect('GraphQL rate applied actions', (dialect) => {
  let t: TestApp;
  const tenant = { id: '' };
  const ids = {
    ledger: '',
    oldLedger: '',
    unit: '',
    foreignLedger: '',
    full: randomUUID(),
    strayed: randomUUID(),
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility } = t.world;
    const own = buildTenant({ facility_id: facility.id, first_name: 'Grace', last_name: 'Hopper' });
    const unit = buildUnit({ facility_id: facility.id, name: 'B-7', rate: 120.25 });
    const ledger = buildLedger({ facility_id: facility.id, tenant_id: own.id, unit_id: unit.id });
    const oldLedger = buildLedger({ facility_id: facility.id, tenant_id: own.id, unit_id: unit.id });
    const otherTenant = buildTenant({ facility_id: otherFacility.id });
    const otherUnit = buildUnit({ facility_id: otherFacility.id });
    const foreignLedger = buildLedger({
      facility_id: otherFacility.id,
      tenant_id: otherTenant.id,
      unit_id: otherUnit.id,
    });
    Object.assign(tenant, { id: own.id });
    Object.assign(ids, {
      ledger: ledger.id,
      oldLedger: oldLedger.id,
      unit: unit.id,
      foreignLedger: foreignLedger.id,
    });
    const mine = { facility_id: facility.id, new_ledger_id: ledger.id, unit_id: unit.id };
    await t.load({
      tenants: [own, otherTenant],
      units: [unit, otherUnit],
      ledgers: [ledger, oldLedger, foreignLedger],
      ledger_insurances: [buildInsurance({ ledger_id: ledger.id, amount: 14.5 })],
      ledger_services: [buildService({ ledger_id: ledger.id, amount: 3.25 })],
      rate_applied_actions: [
        buildRateAppliedAction({
          ...mine,
          id: ids.full,
          rate_info: { applied_rate: { name: 'Spring special', amount: 89.99 }, standard_rate: 99.5 },
          source: 'Sales Center',
          completed_by: 'Jane Clerk',
          employee_id: 'E-17',
          user_id: randomUUID(),
          time_completed: '2026-11-20T15:00:00Z',
          old_ledger_id: oldLedger.id,
        }),
        buildRateAppliedAction({ ...mine, time_completed: '2026-11-20T16:00:00Z' }),
        buildRateAppliedAction({
          ...mine,
          completed_on: '2026-11-18',
          time_completed: '2026-11-18T20:00:00Z',
        }),
        buildRateAppliedAction({
          ...mine,
          id: ids.strayed,
          completed_on: '2026-11-17',
          time_completed: '2026-11-17T20:00:00Z',
        }),
      ],
    });
    // Bad data the import refuses: an action naming another company's ledger. Navigation must not follow it.
    await t.db.store.db
      .updateTable('rate_applied_actions')
      .set({ new_ledger_id: foreignLedger.id })
      .where('id', '=', ids.strayed)
      .execute();
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(FACILITY_EVENING));

  /** REST with the bearer token, which does not depend on the clock the way OAuth timestamps do. */
  const rest = (query = '') =>
    t.app.inject({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/rate_applied_actions${query}`,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });

  it.each([
    ['no dates (both today at the facility)', {}, ''],
    [
      'a range',
      { startDate: '2026-11-17', endDate: '2026-11-20' },
      '?start_date=2026-11-17&end_date=2026-11-20',
    ],
    ['only a start date', { startDate: '2026-11-18' }, '?start_date=2026-11-18'],
    [
      'a range without actions',
      { startDate: '2025-01-01', endDate: '2025-01-31' },
      '?start_date=2025-01-01&end_date=2025-01-31',
    ],
  ])('answers what REST answers for %s', async (_label, dates, query) => {
    const res = await run(t, Actions, { id: t.world.facility.id, ...dates });
    expect(res.errors).toBeUndefined();
    const restBody = (await rest(query)).json();
    const actions = res.data?.facility?.rateAppliedActions ?? [];
    expect(actions.map(({ id: _id, ...fields }) => fields)).toEqual(camelize(restBody.rate_applied_actions));
    if (query === '') expect(actions.map((a) => a.timeCompleted)).toHaveLength(2);
  });

  it('writes every field of REST 2.3 in camelCase, with its id', async () => {
    const res = await run(t, Actions, { id: t.world.facility.id });
    expect(res.data?.facility?.rateAppliedActions[0]).toMatchObject({
      id: ids.full,
      rateInfo: { appliedRate: { name: 'Spring special', amount: 89.99 }, standardRate: 99.5 },
      source: 'Sales Center',
      completedOn: '2026-11-20',
      completedBy: 'Jane Clerk',
      employeeId: 'E-17',
      timeCompleted: '2026-11-20T10:00:00-05:00',
      event: 'MoveInUnitEvent',
      oldLedgerId: ids.oldLedger,
      newLedgerId: ids.ledger,
      unitId: ids.unit,
    });
  });

  it('navigates to the new and old ledger, the unit, and on to tenant, notes, insurance and services', async () => {
    const res = await run(t, Graph, {
      id: t.world.facility.id,
      startDate: '2026-11-17',
      endDate: '2026-11-20',
    });
    expect(res.errors).toBeUndefined();
    const [foreign, earlier, full, later] = res.data?.facility?.rateAppliedActions ?? [];
    const newLedger = {
      id: ids.ledger,
      tenant: { id: tenant.id, name: 'Grace Hopper', notes: [] },
      unit: { id: ids.unit, name: 'B-7', rate: 120.25 },
      insurance: { id: expect.any(String), amount: 14.5 },
      services: [{ id: expect.any(String), amount: 3.25 }],
    };
    expect(full).toEqual({
      id: ids.full,
      newLedger,
      oldLedger: { id: ids.oldLedger },
      unit: { id: ids.unit, name: 'B-7' },
    });
    expect(earlier.oldLedger).toBeNull();
    expect(later.newLedger).toEqual(newLedger);
    // Another company's ledger is never reached, even when a record names it.
    expect(foreign.newLedger).toBeNull();
  });

  it('answers BAD_USER_INPUT naming startDate when it is after endDate, like REST 400/4', async () => {
    const res = await run(t, Actions, {
      id: t.world.facility.id,
      startDate: '2026-11-21',
      endDate: '2026-11-20',
    });
    // The list is non-null, so the error nulls the facility that holds it.
    expect(res.data).toEqual({ facility: null });
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: 'startDate must not be after endDate (2026-11-20)',
        path: ['facility', 'rateAppliedActions'],
        extensions: {
          code: 'BAD_USER_INPUT',
          errorCode: 4,
          parameter: 'startDate',
          problems: [{ parameter: 'startDate', message: 'must not be after endDate (2026-11-20)' }],
        },
      }),
    ]);
  });

  it.each([
    ['not a date', 'yesterday'],
    ['an impossible date', '2026-02-30'],
    ['a date-time', '2026-11-20T10:00:00Z'],
    ['a very long string', 'x'.repeat(10_000)],
    ['an SQL fragment', "2026-11-20' OR '1'='1"],
  ])('refuses %s as a date variable with BAD_USER_INPUT', async (_label, value) => {
    const res = await run(t, Actions, { id: t.world.facility.id, startDate: value });
    expect(res.status).toBe(400);
    expect(res.data).toBeUndefined();
    expect(codesOf(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors?.[0].message).toMatch(/^Variable "\$startDate" got invalid value/);
  });

  it('refuses a bad date literal at validation, before anything runs', async () => {
    const res = await postGraphql(
      t.app,
      {
        query: `{ facility(id: "${t.world.facility.id}") { rateAppliedActions(endDate: "2026-13-01") { id } } }`,
      },
      { bearer: t.world.client.bearer_token },
    );
    expect(codesOf(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describeEachDialect('GraphQL navigation from rate applied actions: SQL statements', (dialect) => {
  let t: TestApp;
  const BIG = '2026-11-10';
  const SMALL = '2026-11-11';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, client } = t.world;
    const tenants = [];
    const units = [];
    const ledgers = [];
    const insurances = [];
    const services = [];
    const actions = [];
    for (let i = 0; i < 110; i++) {
      const tenant = buildTenant({ facility_id: facility.id, last_name: `Tenant ${i}` });
      const unit = buildUnit({ facility_id: facility.id, name: `U-${i}` });
      const ledger = buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id });
      tenants.push(tenant);
      units.push(unit);
      ledgers.push(ledger);
      insurances.push(buildInsurance({ ledger_id: ledger.id }));
      services.push(buildService({ ledger_id: ledger.id }), buildService({ ledger_id: ledger.id }));
      const day = i < 100 ? BIG : SMALL;
      actions.push(
        buildRateAppliedAction({
          facility_id: facility.id,
          new_ledger_id: ledger.id,
          unit_id: unit.id,
          completed_on: day,
          time_completed: `${day}T15:${String(i % 60).padStart(2, '0')}:00Z`,
        }),
      );
    }
    await t.load({
      tenants,
      units,
      ledgers,
      ledger_insurances: insurances,
      ledger_services: services,
      rate_applied_actions: actions,
    });
    // Two note events with a note each on every tenant, written as the notes service writes them.
    const events = tenants.flatMap((tenant, i) =>
      [0, 1].map((n) => ({
        id: randomUUID(),
        facility_id: facility.id,
        tenant_id: tenant.id,
        unit_id: null,
        ledger_id: null,
        user_id: null,
        created_by_client_id: client.id,
        created_at: `2026-11-0${n + 1}T10:00:00.000Z`,
        note: `note ${n} on ${i}`,
      })),
    );
    const db = t.db.store.db;
    await db
      .insertInto('note_events')
      .values(events.map(({ note: _note, ...event }) => event))
      .execute();
    await db
      .insertInto('notes')
      .values(
        events.map((e) => ({
          id: randomUUID(),
          note_event_id: e.id,
          note: e.note,
          created_at: e.created_at,
        })),
      )
      .execute();
  });
  afterAll(() => t.close());

  async function statementsFor(day: string) {
    t.db.queries.length = 0;
    const res = await run(t, Graph, { id: t.world.facility.id, startDate: day, endDate: day });
    expect(res.errors).toBeUndefined();
    return { res, statements: [...t.db.queries] };
  }

  it('runs the same few statements for 100 actions as for 10: one per kind of record', async () => {
    const big = await statementsFor(BIG);
    const small = await statementsFor(SMALL);
    const actions = big.res.data?.facility?.rateAppliedActions ?? [];
    expect(actions).toHaveLength(100);
    expect(small.res.data?.facility?.rateAppliedActions).toHaveLength(10);
    for (const action of actions) {
      expect(action.newLedger?.tenant.notes.map((e) => e.notes.map((n) => n.note))).toEqual([
        [expect.stringMatching(/^note 0 on \d+$/)],
        [expect.stringMatching(/^note 1 on \d+$/)],
      ]);
      expect(action.newLedger?.insurance).not.toBeNull();
      expect(action.newLedger?.services).toHaveLength(2);
      expect(action.unit?.id).toBe(action.newLedger?.unit.id);
    }

    const tables = (statements: string[]) =>
      statements.map((s) => /\b(?:from|update)\s+"?(\w+)"?/i.exec(s)?.[1] ?? s).sort();
    // Credentials and the facility are read at most once each: the services keep them a few seconds.
    const cached = (statements: string[]) =>
      tables(statements).filter((table) => CACHED_TABLES.includes(table));
    expect(cached(big.statements).length).toBeLessThanOrEqual(2);
    expect(cached(small.statements).length).toBeLessThanOrEqual(2);
    const perRequest = (statements: string[]) =>
      tables(statements).filter(
        (table) => !CACHED_TABLES.includes(table) && !BOOKKEEPING_TABLES.includes(table),
      );
    // The actions, then one batch each: ledgers, tenants, units, insurance, services, note events
    // (with their notes joined in).
    expect(perRequest(big.statements)).toEqual(perRequest(small.statements));
    expect(perRequest(big.statements)).toHaveLength(EXPECTED_STATEMENTS);
  });
});

/** Tables of the credentials and facility lookups, which the services cache for a few seconds. */
const CACHED_TABLES = ['bearer_tokens', 'facilities'];
/**
 * A client's last use, written beside a request at most once a minute (clients list shows it), and,
 * on PostgreSQL, the credentials' revision, read each request so that a revocation holds on every
 * instance at once.
 */
const BOOKKEEPING_TABLES = ['client_applications', 'data_revisions'];
/** Actions (1) + ledgers, tenants, units, insurance, services, notes (6). */
const EXPECTED_STATEMENTS = 7;
