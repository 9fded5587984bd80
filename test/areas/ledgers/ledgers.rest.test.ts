import { randomUUID } from 'node:crypto';
import {
  buildDiscount,
  buildInsurance,
  buildLedger,
  buildService,
  buildTenant,
  buildUnit,
} from '../../support/factories';
import { describeEachDialect } from '../../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../../support/http';

describeEachDialect('GET /v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts', (dialect) => {
  let t: TestApp;
  let ledgerId: string;
  let bareLedgerId: string;
  let cancelledLedgerId: string;
  let foreignLedgerId: string;
  let otherCompanyLedgerId: string;
  const policy = {
    old: randomUUID(),
    current: randomUUID(),
    cancelledYesterday: randomUUID(),
    cancelledOnly: randomUUID(),
  };
  const service = {
    late: randomUUID(),
    early: randomUUID(),
    tieA: 'bbbbbbbb-0000-4000-8000-000000000001',
    tieB: 'bbbbbbbb-0000-4000-8000-000000000002',
  };
  const discount = { late: randomUUID(), early: randomUUID() };

  const pathOf = (facilityId: string, ledger: string) =>
    `/v1/${facilityId}/ledgers/${ledger}/insurance_services_and_discounts`;
  const urlOf = (ledger: string) => pathOf(t.world.facility.id, ledger);
  /** GET with the bearer token, which does not depend on the clock the way OAuth timestamps do. */
  const get = (path: string) =>
    t.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });

  // 04:00 UTC on the 21st is still the 20th in New York, the facility's zone.
  const facilityToday = new Date('2026-11-21T04:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { company, facility, otherFacility } = t.world;
    const sister = { id: randomUUID(), company_id: company.id, name: 'Sister Site' };
    const tenant = buildTenant({ facility_id: facility.id });
    const unit = buildUnit({ facility_id: facility.id });
    const sisterTenant = buildTenant({ facility_id: sister.id });
    const sisterUnit = buildUnit({ facility_id: sister.id });
    const otherTenant = buildTenant({ facility_id: otherFacility.id });
    const otherUnit = buildUnit({ facility_id: otherFacility.id });
    const own = { facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id };
    const ledger = buildLedger(own);
    const bare = buildLedger(own);
    const cancelled = buildLedger(own);
    const sisterLedger = buildLedger({
      facility_id: sister.id,
      tenant_id: sisterTenant.id,
      unit_id: sisterUnit.id,
    });
    const otherLedger = buildLedger({
      facility_id: otherFacility.id,
      tenant_id: otherTenant.id,
      unit_id: otherUnit.id,
    });
    ledgerId = ledger.id;
    bareLedgerId = bare.id;
    cancelledLedgerId = cancelled.id;
    foreignLedgerId = sisterLedger.id;
    otherCompanyLedgerId = otherLedger.id;
    await t.load({
      facilities: [sister],
      tenants: [tenant, sisterTenant, otherTenant],
      units: [unit, sisterUnit, otherUnit],
      ledgers: [ledger, bare, cancelled, sisterLedger, otherLedger],
      ledger_insurances: [
        buildInsurance({ id: policy.old, ledger_id: ledger.id, effective_date: '2025-01-01' }),
        buildInsurance({
          id: policy.current,
          ledger_id: ledger.id,
          effective_date: '2026-03-01',
          cancel_date: '2026-11-20',
          amount: 14.75,
          data: {
            description: 'Tenant protection 5000',
            retain_type: 'percent',
            product_code: 'INS-5000',
            policy_number: 'POL-5000-7',
            retain_amount: '12.5',
            coverage_amount: '5000.0',
            coverage_percentage: '100.0',
            insurance_provider_key: 'safeguard',
          },
        }),
        buildInsurance({
          id: policy.cancelledYesterday,
          ledger_id: ledger.id,
          effective_date: '2026-06-01',
          cancel_date: '2026-11-19',
        }),
        buildInsurance({
          id: policy.cancelledOnly,
          ledger_id: cancelled.id,
          effective_date: '2026-01-01',
          cancel_date: '2026-11-19',
        }),
        buildInsurance({ ledger_id: sisterLedger.id }),
      ],
      ledger_services: [
        buildService({ id: service.late, ledger_id: ledger.id, effective_date: '2026-09-01' }),
        buildService({
          id: service.early,
          ledger_id: ledger.id,
          effective_date: '2025-02-01',
          cancel_date: '2025-12-31',
          amount: 7.25,
          data: { description: 'Climate control', product_code: 'SVC-CLIMATE' },
        }),
        buildService({ id: service.tieB, ledger_id: ledger.id, effective_date: '2026-05-01' }),
        buildService({ id: service.tieA, ledger_id: ledger.id, effective_date: '2026-05-01' }),
        buildService({ ledger_id: sisterLedger.id }),
      ],
      ledger_discounts: [
        buildDiscount({ id: discount.late, ledger_id: ledger.id, start_date: '2026-10-01' }),
        buildDiscount({
          id: discount.early,
          ledger_id: ledger.id,
          name: 'Military',
          kind: 'always',
          description: '10% off',
          start_date: '2025-01-15',
          end_date: '2026-01-15',
          min_occupancy_months: 3,
        }),
      ],
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(facilityToday));

  it('answers the current insurance, all services and all discounts in the fields of 2.4', async () => {
    const res = await get(urlOf(ledgerId));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['insurance', 'services', 'discounts', 'meta']);
    // The policy cancelled on today still counts; the later one cancelled yesterday does not.
    expect(body.insurance).toEqual({
      id: policy.current,
      effective_date: '2026-03-01',
      cancel_date: '2026-11-20',
      data: {
        description: 'Tenant protection 5000',
        retain_type: 'percent',
        product_code: 'INS-5000',
        policy_number: 'POL-5000-7',
        retain_amount: '12.5',
        coverage_amount: '5000.0',
        coverage_percentage: '100.0',
        insurance_provider_key: 'safeguard',
      },
      amount: 14.75,
    });
    expect(body.services.map((s: { id: string }) => s.id)).toEqual([
      service.early,
      service.tieA,
      service.tieB,
      service.late,
    ]);
    expect(body.services[0]).toEqual({
      id: service.early,
      effective_date: '2025-02-01',
      cancel_date: '2025-12-31',
      data: { description: 'Climate control', product_code: 'SVC-CLIMATE' },
      amount: 7.25,
    });
    expect(body.services[3].cancel_date).toBeNull();
    expect(body.discounts).toEqual([
      {
        id: discount.early,
        name: 'Military',
        kind: 'always',
        description: '10% off',
        start_date: '2025-01-15',
        end_date: '2026-01-15',
        min_occupancy_months: 3,
      },
      {
        id: discount.late,
        name: 'First month free',
        kind: 'always',
        description: '100% off the first month',
        start_date: '2026-10-01',
        end_date: null,
        min_occupancy_months: null,
      },
    ]);
    expect(body.meta.parameters).toEqual({ facility_id: t.world.facility.id, ledger_id: ledgerId });
  });

  it("moves to the next current policy once today passes the cancel date in the facility's zone", async () => {
    t.clock.set(new Date('2026-11-21T06:00:00Z'));
    const res = await get(urlOf(ledgerId));
    expect(res.json().insurance.id).toBe(policy.old);
  });

  it('answers insurance null and empty lists for a ledger without any', async () => {
    const res = await get(urlOf(bareLedgerId));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ insurance: null, services: [], discounts: [] });
    const cancelled = await get(urlOf(cancelledLedgerId));
    expect(cancelled.json().insurance).toBeNull();
  });

  it('finds the ledger by an upper-case id', async () => {
    const res = await get(urlOf(ledgerId.toUpperCase()));
    expect(res.statusCode).toBe(200);
    expect(res.json().insurance.id).toBe(policy.current);
    expect(res.json().meta.parameters.ledger_id).toBe(ledgerId.toUpperCase());
  });

  it('accepts an OAuth 1.0 signed request', async () => {
    t.clock.set(new Date());
    const res = await t.get(urlOf(bareLedgerId));
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['an unknown id', () => randomUUID()],
    ['a ledger of another facility of the same company', () => foreignLedgerId],
    ['a ledger of another company', () => otherCompanyLedgerId],
    ['a malformed id', () => 'not-a-ledger'],
    ['an SQL fragment', () => encodeURIComponent("1' OR '1'='1")],
    ['a 3,000-character id', () => 'x'.repeat(3000)],
  ])('answers 404/9 naming ledger_id for %s', async (_label, id) => {
    const res = await get(urlOf(id()));
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({
      status_code: 404,
      error_code: 9,
      errors: [{ parameter: 'ledger_id' }],
    });
  });

  it('answers 401/2 without credentials and with a bad signature', async () => {
    t.clock.set(new Date());
    const url = urlOf(ledgerId);
    const none = await t.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    expect(none.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
    const header = oauthHeader(
      { consumer_key: t.world.client.consumer_key, consumer_secret: 'wrong' },
      { method: 'GET', url },
    );
    const forged = await t.app.inject({ method: 'GET', url, headers: { authorization: header } });
    expect(forged.statusCode).toBe(401);
  });

  it('answers 403/13 for a facility of another company, even with its own ledger', async () => {
    const res = await get(pathOf(t.world.otherFacility.id, otherCompanyLedgerId));
    expect(res.statusCode).toBe(403);
    expect(res.json().meta.error_code).toBe(13);
  });

  it('answers 404/9 naming facility_id for an unknown facility', async () => {
    const res = await get(pathOf(randomUUID(), ledgerId));
    expect(res.statusCode).toBe(404);
    expect(res.json().meta).toMatchObject({ error_code: 9, errors: [{ parameter: 'facility_id' }] });
  });
});

describeEachDialect('ledgers service batch lookups', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers in key order with null or an empty list for a missing key', async () => {
    const { facility } = t.world;
    const tenant = buildTenant({ facility_id: facility.id });
    const units = [buildUnit({ facility_id: facility.id }), buildUnit({ facility_id: facility.id })];
    const ledgers = units.map((unit) =>
      buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id }),
    );
    await t.load({
      tenants: [tenant],
      units,
      ledgers,
      ledger_insurances: [
        buildInsurance({ ledger_id: ledgers[1].id, effective_date: '2020-01-01' }),
        buildInsurance({ ledger_id: ledgers[1].id, effective_date: '2021-01-01', cancel_date: '2021-06-01' }),
      ],
      ledger_services: [buildService({ ledger_id: ledgers[0].id })],
      ledger_discounts: [buildDiscount({ ledger_id: ledgers[1].id })],
    });
    const missing = randomUUID();
    const ledgersService = t.services.ledgers;

    const byIds = await ledgersService.ledgersByIds([
      ledgers[1].id,
      missing,
      'bad',
      ledgers[0].id.toUpperCase(),
    ]);
    expect(byIds.map((l) => l?.id ?? null)).toEqual([ledgers[1].id, null, null, ledgers[0].id]);
    expect(byIds[0]).toEqual({
      id: ledgers[1].id,
      facilityId: facility.id,
      tenantId: tenant.id,
      unitId: units[1].id,
    });

    const byTenant = await ledgersService.ledgersByTenantIds([missing, tenant.id]);
    expect(byTenant[0]).toEqual([]);
    expect(byTenant[1].map((l) => l.id).sort()).toEqual(ledgers.map((l) => l.id).sort());

    const byUnit = await ledgersService.ledgersByUnitIds([units[1].id, units[0].id]);
    expect(byUnit.map((list) => list.map((l) => l.id))).toEqual([[ledgers[1].id], [ledgers[0].id]]);

    const insurance = await ledgersService.insuranceByLedgerIds([ledgers[0].id, ledgers[1].id, missing]);
    expect(insurance[0]).toBeNull();
    expect(insurance[1]?.effectiveDate).toBe('2020-01-01');
    expect(insurance[2]).toBeNull();

    const services = await ledgersService.servicesByLedgerIds([ledgers[1].id, ledgers[0].id]);
    expect(services.map((list) => list.length)).toEqual([0, 1]);
    const discounts = await ledgersService.discountsByLedgerIds([ledgers[1].id, ledgers[0].id]);
    expect(discounts.map((list) => list.length)).toEqual([1, 0]);
  });
});
