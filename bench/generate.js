'use strict';
const { randomUUID } = require('node:crypto');
/**
 * A deterministic company for the bench, written as a dataset file and loaded with
 * `facility-ops import`, so every row, sort key and per-day count is what a real import writes.
 */

/** mulberry32: a small seeded generator, so every run loads the same rows. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFactory(random) {
  const hex = () => Math.floor(random() * 16).toString(16);
  const hexes = (n) => Array.from({ length: n }, hex).join('');
  return () =>
    `${hexes(8)}-${hexes(4)}-4${hexes(3)}-${'89ab'[Math.floor(random() * 4)]}${hexes(3)}-${hexes(12)}`;
}

const FIRST = ['Ada', 'adam', 'Émile', 'Zed', 'Chloé', 'bob', 'Ömer', 'Lin', 'yuki', 'Ana', 'Sam', 'Noor'];
const LAST = ['Smith', 'jones', 'Łukasz', 'Brown', 'Zhang', 'Müller', 'García', "O'Neil", 'Kim', 'Ng'];
const ZONES = ['America/New_York', 'America/Los_Angeles', 'Europe/London', 'Pacific/Auckland'];

/** Rate changes fall between these instants: two years, about 1,370 a day for a 1,000,000-row company. */
const FROM_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 2 * 365 * 86_400_000;

/**
 * Dataset parts of one company: `facilities` x `tenants` tenants, each with one unit and
 * `changes` rate changes; the first facility also gets invoiceable items. One part per facility.
 */
function* companyParts(plan) {
  const random = seeded(plan.seed);
  const uuid = uuidFactory(random);
  const companyId = uuid();
  const facilityIds = Array.from({ length: plan.facilities }, () => uuid());
  plan.out.companyId = companyId;
  plan.out.facilityId = facilityIds[0];
  yield {
    version: 1,
    companies: [{ id: companyId, name: plan.name }],
    facilities: facilityIds.map((id, f) => ({
      id,
      company_id: companyId,
      name: `${plan.name} ${String(f + 1).padStart(3, '0')} ${FIRST[f % FIRST.length]}`,
      time_zone: ZONES[f % ZONES.length],
    })),
    flippers: [
      { name: `${plan.key}_company_flag`, company_ids: [companyId] },
      { name: `${plan.key}_facility_flag`, facility_ids: [facilityIds[0]] },
    ],
  };
  for (const [f, facilityId] of facilityIds.entries()) {
    const part = { version: 1, tenants: [], units: [], rate_changes: [], invoiceable_items: [] };
    if (f === 0) part.invoiceable_items = invoiceableItems(facilityId, uuid);
    for (let t = 0; t < plan.tenants; t++) {
      const tenantId = uuid();
      const unitId = uuid();
      part.tenants.push({
        id: tenantId,
        facility_id: facilityId,
        first_name: FIRST[Math.floor(random() * FIRST.length)],
        last_name: `${LAST[Math.floor(random() * LAST.length)]}${t}`,
      });
      let rate = 5000 + Math.floor(random() * 20000);
      part.units.push({ id: unitId, facility_id: facilityId, name: `U-${t + 1}`, rate: rate / 100 });
      const times = Array.from({ length: plan.changes }, () => FROM_MS + Math.floor(random() * SPAN_MS)).sort(
        (a, b) => a - b,
      );
      for (const at of times) {
        const next = Math.round(rate * (1 + (3 + Math.floor(random() * 7)) / 100));
        part.rate_changes.push({
          id: uuid(),
          facility_id: facilityId,
          tenant_id: tenantId,
          unit_id: unitId,
          changed_at: new Date(at).toISOString(),
          old_rate: rate / 100,
          new_rate: next / 100,
          effective_on_date: new Date(at + 30 * 86_400_000).toISOString().slice(0, 10),
          created_by: random() < 0.85 ? 1 + Math.floor(random() * 20) : null,
        });
        rate = next;
      }
    }
    yield part;
  }
}

function invoiceableItems(facilityId, uuid) {
  const items = [];
  const kinds = ['fee', 'insurance', 'service', 'retail'];
  for (let i = 0; i < 40; i++) {
    const kind = kinds[i % kinds.length];
    const amount = 5 + i;
    const tax = kind === 'retail' ? Math.round(amount * 8) / 100 : 0;
    const item = {
      id: uuid(),
      facility_id: facilityId,
      kind,
      product_code: `${kind.toUpperCase()}-${i}`,
      description: `${kind} item ${String(i).padStart(2, '0')}`,
      invoiceable_amounts: [{ id: uuid(), amount, kind: 'amount', limit: null }],
      tax_total: tax,
      total: Math.round((amount + tax) * 100) / 100,
    };
    if (kind === 'fee') item.fee_category = 'other';
    if (kind === 'retail') Object.assign(item, { quantity: 100, rental_center_eligible: i % 8 === 3 });
    if (kind === 'insurance') {
      Object.assign(item, {
        coverage_amount: 2000,
        coverage_percentage: 100,
        provider_name: 'Bench',
        provider_key: 'bench',
      });
    }
    items.push(item);
  }
  return items;
}

/** One company as a single dataset (every part merged), with the ids the bench needs. */
function companyDataset(plan) {
  const out = {};
  const dataset = { version: 1 };
  for (const part of companyParts({ ...plan, out })) {
    for (const [key, value] of Object.entries(part)) {
      if (Array.isArray(value)) dataset[key] = [...(dataset[key] ?? []), ...value];
    }
  }
  return { dataset, companyId: out.companyId, facilityId: out.facilityId };
}

const ACTIONS_DAY = '2026-11-20';
const DAY = ACTIONS_DAY;

/** The rate applied actions of one day, each on a ledger of its own with insurance, services and discounts. */
function actionsPart(facilityId, count) {
  const part = {
    version: 1,
    tenants: [],
    units: [],
    ledgers: [],
    ledger_insurances: [],
    ledger_services: [],
    ledger_discounts: [],
    rate_applied_actions: [],
  };
  for (let i = 0; i < count; i++) {
    const tenant = { id: randomUUID(), facility_id: facilityId, first_name: 'Ada', last_name: `Mover${i}` };
    const unit = { id: randomUUID(), facility_id: facilityId, name: `M-${i + 1}`, rate: 120 };
    const ledger = { id: randomUUID(), facility_id: facilityId, tenant_id: tenant.id, unit_id: unit.id };
    part.tenants.push(tenant);
    part.units.push(unit);
    part.ledgers.push(ledger);
    part.ledger_insurances.push({
      id: randomUUID(),
      ledger_id: ledger.id,
      effective_date: DAY,
      cancel_date: null,
      amount: 12.5,
      data: {
        description: 'Tenant protection 2000',
        retain_type: 'percent',
        product_code: 'INS-2000',
        policy_number: `POL-${i}`,
        retain_amount: '10.0',
        coverage_amount: '2000.0',
        coverage_percentage: '100.0',
        insurance_provider_key: 'safeguard',
      },
    });
    for (const [description, code] of [
      ['Climate control', 'SVC-CLIMATE'],
      ['Autopay', 'SVC-AUTOPAY'],
    ]) {
      part.ledger_services.push({
        id: randomUUID(),
        ledger_id: ledger.id,
        effective_date: DAY,
        cancel_date: null,
        amount: 5,
        data: { description, product_code: code },
      });
    }
    part.ledger_discounts.push({
      id: randomUUID(),
      ledger_id: ledger.id,
      name: 'First month free',
      kind: 'always',
      description: '100% off the first month',
      start_date: DAY,
      end_date: null,
      min_occupancy_months: null,
    });
    part.rate_applied_actions.push({
      id: randomUUID(),
      facility_id: facilityId,
      rate_info: { applied_rate: { name: 'Web rate', amount: 110 }, standard_rate: 120 },
      source: 'Kiosk',
      completed_on: DAY,
      completed_by: '',
      employee_id: '',
      user_id: '',
      time_completed: `${DAY}T${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00-06:00`,
      event: 'MoveInUnitEvent',
      old_ledger_id: '',
      new_ledger_id: ledger.id,
      unit_id: unit.id,
      lead_id: randomUUID(),
    });
  }
  return part;
}

module.exports = { ACTIONS_DAY, actionsPart, companyDataset, companyParts };
