import { localDate } from '../../src/kernel/time';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { DATASET_PLANS } from '../../src/modules';
import { schemaProblems } from '../../src/store/dataset/dataset.validate';
import type { Dataset } from '../../src/store/dataset/dataset.types';
import type { Store } from '../../src/store/database';
import { demoDataset, demoDatasetParts, demoDirectory, recordCount } from '../../src/store/seed/demo-data';
import { seedDemoData } from '../../src/store/seed/seed';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

const TODAY = '2026-11-21';
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('demo data generator', () => {
  let data: Dataset;
  beforeAll(() => {
    data = demoDataset({ scale: 1, today: TODAY });
  });

  it('gives the same records for the same scale and date, and the same ids for another date', () => {
    expect(demoDataset({ scale: 1, today: TODAY })).toEqual(data);
    const later = demoDataset({ scale: 1, today: '2027-03-01' });
    expect(later.rate_changes!.map((r) => r.id)).toEqual(data.rate_changes!.map((r) => r.id));
    expect(later.events!.map((e) => e.id)).toEqual(data.events!.map((e) => e.id));
    expect(later.events![0].created_at).not.toEqual(data.events![0].created_at);
  });

  it('holds, at a larger scale, every record of a smaller one unchanged', () => {
    const larger = demoDataset({ scale: 2, today: TODAY });
    for (const [key, list] of Object.entries(data)) {
      if (!Array.isArray(list) || key === 'flippers') continue;
      const byId = new Map(
        ((larger as unknown as Record<string, unknown>)[key] as Array<{ id: string }>).map((record) => [
          record.id,
          record,
        ]),
      );
      expect(byId.size).toBeGreaterThanOrEqual(list.length);
      for (const record of list as Array<{ id: string }>) expect(byId.get(record.id)).toEqual(record);
    }
    expect(larger.tenants).toHaveLength(2 * data.tenants!.length);
    expect(larger.rate_changes).toHaveLength(2 * data.rate_changes!.length);
  });

  it('validates against the dataset schema, with unique ids everywhere', () => {
    expect(schemaProblems(data)).toEqual([]);
    expect(schemaProblems(demoDataset({ scale: 2, today: '2024-02-29' }))).toEqual([]);
    const ids = new Set<string>();
    let total = 0;
    for (const [key, list] of Object.entries(data)) {
      if (!Array.isArray(list) || key === 'flippers') continue;
      for (const record of list as Array<{ id: string; invoiceable_amounts?: Array<{ id: string }> }>) {
        ids.add(record.id);
        total++;
        for (const tier of record.invoiceable_amounts ?? []) {
          ids.add(tier.id);
          total++;
        }
      }
    }
    expect(ids.size).toBe(total);
  });

  it('is cut into parts that merge into the whole', () => {
    const parts = [...demoDatasetParts({ scale: 1, today: TODAY })];
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.reduce((n, part) => n + recordCount(part), 0)).toBe(recordCount(data));
    expect(parts[0]).toEqual({
      version: 1,
      companies: data.companies,
      facilities: data.facilities,
      flippers: data.flippers,
    });
  });

  it('has companies whose facilities are in several time zones, as the directory says', () => {
    const directory = demoDirectory();
    expect(directory.map((c) => ({ id: c.id, name: c.name }))).toEqual(data.companies);
    expect(directory.flatMap((c) => c.facilities.map((f) => f.id))).toEqual(
      data.facilities!.map((f) => f.id),
    );
    const zones = new Set(data.facilities!.map((f) => f.time_zone));
    for (const zone of ['America/New_York', 'America/Los_Angeles', 'Europe/London', 'Pacific/Auckland']) {
      expect(zones).toContain(zone);
    }
    expect(data.facilities!.some((f) => f.tenant_payments_disabled)).toBe(true);
  });

  it('has flags enabled globally, for companies, for facilities, and not at all', () => {
    const flippers = data.flippers!;
    expect(flippers.some((f) => f.enabled_globally)).toBe(true);
    expect(flippers.some((f) => f.company_ids?.length)).toBe(true);
    expect(flippers.some((f) => f.facility_ids?.length)).toBe(true);
    expect(flippers.some((f) => !f.enabled_globally && !f.company_ids && !f.facility_ids)).toBe(true);
  });

  it('has invoiceable items of every kind and fee category, tiered ones, and retail for the rental center', () => {
    const items = data.invoiceable_items!;
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(['fee', 'insurance', 'service', 'retail']));
    expect(new Set(items.map((i) => i.fee_category).filter(Boolean))).toEqual(
      new Set(['security_deposit', 'online_payment', 'reservation', 'move_in', 'transfer', 'other']),
    );
    for (const kind of ['fee', 'service'] as const) {
      expect(items.some((i) => i.kind === kind && i.invoiceable_amounts.length > 1)).toBe(true);
    }
    expect(items.some((i) => i.invoiceable_amounts.some((a) => a.kind === 'percent'))).toBe(true);
    const retail = items.filter((i) => i.kind === 'retail');
    expect(retail.some((i) => i.rental_center_eligible)).toBe(true);
    expect(retail.some((i) => !i.rental_center_eligible)).toBe(true);
    expect(retail.some((i) => i.is_rental_center_lock)).toBe(true);
    expect(retail.some((i) => i.quantity === 0)).toBe(true);
    for (const item of retail) {
      expect(Math.round(item.invoiceable_amounts[0].amount * 100 + item.tax_total * 100)).toBe(
        Math.round(item.total * 100),
      );
    }
    // A facility without one of the single fees, so /fees answers a null there.
    const firstFacility = data.facilities![0].id;
    const perFacility = data.facilities!.map(
      (f) => items.filter((i) => i.facility_id === f.id && i.kind === 'fee').length,
    );
    expect(Math.min(...perFacility)).toBeLessThan(Math.max(...perFacility));
    // The first facility's lists run past one page of 100.
    expect(items.filter((i) => i.facility_id === firstFacility).length).toBeGreaterThan(100);
  });

  it('has events of every type with documents, esignable ones with template bodies, and a long packet', () => {
    expect(new Set(data.events!.map((e) => e.type))).toEqual(
      new Set(['move_in_unit_event', 'move_out_unit_event', 'successful_payment_event']),
    );
    expect(data.events!.some((e) => e.ledger_id === null)).toBe(true);
    const docs = data.event_documents!;
    const esignable = docs.filter((d) => d.esignable);
    expect(esignable.length).toBeGreaterThan(0);
    for (const placeholder of ['{{tenant_name}}', '{{unit_name}}', '{{facility_name}}', '{{date}}']) {
      expect(esignable.some((d) => d.body?.includes(placeholder))).toBe(true);
    }
    expect(docs.some((d) => d.is_relevant === false)).toBe(true);
    const perEvent = new Map<string, number>();
    for (const doc of docs) perEvent.set(doc.event_id, (perEvent.get(doc.event_id) ?? 0) + 1);
    expect(Math.max(...perEvent.values())).toBeGreaterThan(100);
    const withEsignable = new Set(esignable.map((d) => d.event_id));
    expect(data.events!.some((e) => !withEsignable.has(e.id))).toBe(true);
    expect(data.events!.every((e) => perEvent.has(e.id))).toBe(true);
  });

  it('has current and cancelled insurance, services and discounts', () => {
    const insurances = data.ledger_insurances!;
    expect(insurances.some((i) => i.cancel_date === null)).toBe(true);
    expect(insurances.some((i) => i.cancel_date !== null && i.cancel_date! < TODAY)).toBe(true);
    expect(insurances.some((i) => i.cancel_date !== null && i.cancel_date! > TODAY)).toBe(true);
    expect(insurances.every((i) => i.cancel_date === null || i.cancel_date! >= i.effective_date)).toBe(true);
    expect(data.ledger_services!.length).toBeGreaterThan(0);
    expect(data.ledger_discounts!.some((d) => d.end_date === null)).toBe(true);
    expect(data.ledger_discounts!.some((d) => d.end_date !== null)).toBe(true);
  });

  it('has rate applied actions on the days around the reference date in every facility', () => {
    for (const facility of data.facilities!) {
      const days = new Set(
        data.rate_applied_actions!.filter((r) => r.facility_id === facility.id).map((r) => r.completed_on),
      );
      for (const day of [addDays(TODAY, -2), addDays(TODAY, -1), TODAY]) expect(days).toContain(day);
      // Without a "now", the data runs to the end of the reference date, and no further.
      expect([...days].filter((day) => day > TODAY)).toEqual([]);
    }
    // completed_on is the facility's local date of time_completed.
    const zones = new Map(data.facilities!.map((f) => [f.id, f.time_zone!]));
    for (const action of data.rate_applied_actions!.slice(0, 200)) {
      expect(localDate(new Date(action.time_completed), zones.get(action.facility_id)!)).toBe(
        action.completed_on,
      );
    }
  });

  it('dates nothing after "now" in its facility\'s zone, late in the UTC day and west of UTC', () => {
    const now = '2026-11-26T23:30:00.000Z';
    const asOf = demoDataset({ scale: 1, today: '2026-11-26', now });
    const zones = new Map(asOf.facilities!.map((f) => [f.id, f.time_zone!]));
    const nowMs = Date.parse(now);
    const later = (instant: string) => Date.parse(instant) > nowMs;
    const eventsAfter = asOf.events!.filter((e) => later(e.created_at));
    const documentsAfter = asOf.event_documents!.filter((d) => later(d.created_at));
    const actionsAfter = asOf.rate_applied_actions!.filter(
      (a) => later(a.time_completed) || a.completed_on > localDate(new Date(now), zones.get(a.facility_id)!),
    );
    const ratesAfter = asOf.rate_changes!.filter((c) => later(c.changed_at));
    expect({ eventsAfter, documentsAfter, actionsAfter, ratesAfter }).toEqual({
      eventsAfter: [],
      documentsAfter: [],
      actionsAfter: [],
      ratesAfter: [],
    });
    // Each facility's own today still has move-ins: 2026-11-26 in New York and Los Angeles (18:30
    // and 15:30 there), 2026-11-27 in Auckland (12:30 there).
    for (const facility of asOf.facilities!) {
      const today = localDate(new Date(now), facility.time_zone!);
      const actions = asOf.rate_applied_actions!.filter((a) => a.facility_id === facility.id);
      expect({ facility: facility.name, today: actions.some((a) => a.completed_on === today) }).toEqual({
        facility: facility.name,
        today: true,
      });
    }
    expect(new Set(asOf.facilities!.map((f) => localDate(new Date(now), f.time_zone!)))).toEqual(
      new Set(['2026-11-26', '2026-11-27']),
    );
  });

  it('has saved payment methods with brand, last four digits and expiry only', () => {
    const cards = data.payment_methods!.filter((p) => p.kind === 'credit_card');
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.card_last4).toMatch(/^[0-9]{4}$/);
      expect(card.card_type).toBeTruthy();
      expect(card.expiration_date).toMatch(/^(0[1-9]|1[0-2])\/[0-9]{2}$/);
      expect(Object.keys(card)).not.toContain('card_number');
    }
    expect(data.payment_methods!.some((p) => p.kind === 'ach')).toBe(true);
  });

  it('has ten thousand rate changes per scale unit in the first company, over two years, with creators', () => {
    const [first] = demoDirectory();
    const firstFacilities = new Set(first.facilities.map((f) => f.id));
    const count = (dataset: Dataset) =>
      dataset.rate_changes!.filter((r) => firstFacilities.has(r.facility_id)).length;
    expect(count(data)).toBe(10_000);
    expect(count(demoDataset({ scale: 3, today: TODAY }))).toBe(30_000);
    const days = data.rate_changes!.map((r) => r.changed_at.slice(0, 10)).sort();
    expect(days[0] >= addDays(TODAY, -731)).toBe(true);
    expect(days[days.length - 1] <= TODAY).toBe(true);
    expect(days[0] < addDays(TODAY, -700)).toBe(true);
    const creators = new Set(data.rate_changes!.map((r) => r.created_by));
    expect(creators).toContain(null);
    expect([...creators].filter((c) => typeof c === 'number').length).toBeGreaterThan(1);
  });

  it('refuses a scale or date it cannot use', () => {
    expect(() => demoDataset({ scale: 0, today: TODAY })).toThrow(RangeError);
    expect(() => demoDataset({ scale: 1.5, today: TODAY })).toThrow(RangeError);
    expect(() => demoDataset({ scale: 1, today: '2026-02-30' })).toThrow(RangeError);
  });
});

async function rowCount(
  store: Store,
  table: 'companies' | 'rate_changes' | 'event_documents' | 'invoiceable_amounts',
) {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The day and month counts as stored, without the zero rows deletes may leave. */
async function rateChangeCounts(store: Store) {
  const daily = await store.db
    .selectFrom('rate_change_daily_counts')
    .select(['company_id', 'day', 'entries'])
    .where('entries', '<>', 0)
    .orderBy('company_id')
    .orderBy('day')
    .execute();
  const monthly = await store.db
    .selectFrom('rate_change_monthly_counts')
    .select(['company_id', 'month', 'entries'])
    .where('entries', '<>', 0)
    .orderBy('company_id')
    .orderBy('month')
    .execute();
  const creators = await store.db
    .selectFrom('rate_change_creator_daily_counts')
    .select(['company_id', 'created_by', 'day', 'entries'])
    .where('entries', '<>', 0)
    .orderBy('company_id')
    .orderBy('created_by')
    .orderBy('day')
    .execute();
  return {
    daily: daily.map((r) => ({ ...r, entries: Number(r.entries) })),
    monthly: monthly.map((r) => ({ ...r, entries: Number(r.entries) })),
    creators: creators.map((r) => ({ ...r, entries: Number(r.entries) })),
  };
}

async function sqliteSchema(store: Store) {
  return store.sqlite!.prepare('select type, name, sql from sqlite_master order by type, name').all();
}

describeEachDialect('seedDemoData', (dialect) => {
  let t: TestStore;
  const data = demoDataset({ scale: 1, today: TODAY });
  beforeEach(async () => {
    t = await createTestStore(dialect);
  });
  afterEach(() => t.close());

  it('loads every record, counts them, and loads the same again without new rows', async () => {
    const schemaBefore = dialect === 'sqlite' ? await sqliteSchema(t.store) : null;
    const progress: number[] = [];
    const result = await seedDemoData(t.store, DATASET_PLANS, { scale: 1, today: TODAY }, (n) =>
      progress.push(n),
    );
    const tiers = data.invoiceable_items!.reduce((n, item) => n + item.invoiceable_amounts.length, 0);
    const actors = data.flippers!.reduce(
      (n, f) => n + (f.company_ids?.length ?? 0) + (f.facility_ids?.length ?? 0),
      0,
    );
    expect(result.records).toBe(recordCount(data) + tiers + actors);
    expect(result.counts.rate_changes).toBe(data.rate_changes!.length);
    expect(result.recordsPerSecond).toBeGreaterThan(0);
    expect(progress[progress.length - 1]).toBe(result.records);
    expect(await rowCount(t.store, 'companies')).toBe(4);
    expect(await rowCount(t.store, 'rate_changes')).toBe(data.rate_changes!.length);
    expect(await rowCount(t.store, 'event_documents')).toBe(data.event_documents!.length);
    expect(await rowCount(t.store, 'invoiceable_amounts')).toBe(tiers);

    if (dialect === 'sqlite') {
      // Indexes and triggers are back, and the database checks its foreign keys again.
      expect(await sqliteSchema(t.store)).toEqual(schemaBefore);
      expect(t.store.sqlite!.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(t.store.sqlite!.pragma('foreign_key_check')).toEqual([]);
    }

    const again = await seedDemoData(t.store, DATASET_PLANS, { scale: 1, today: TODAY });
    expect(again.counts).toEqual(result.counts);
    expect(await rowCount(t.store, 'rate_changes')).toBe(data.rate_changes!.length);

    // A larger seed over it extends it: nothing is left over from the smaller one.
    const larger = await seedDemoData(t.store, DATASET_PLANS, { scale: 2, today: TODAY });
    expect(await rowCount(t.store, 'rate_changes')).toBe(larger.counts.rate_changes);
    expect(await rowCount(t.store, 'event_documents')).toBe(larger.counts.event_documents);
  });

  it('leaves the per-day and per-month rate change counts exactly as row-by-row imports would', async () => {
    await seedDemoData(t.store, DATASET_PLANS, { scale: 1, today: TODAY });
    const seeded = await rateChangeCounts(t.store);
    expect(seeded.daily.reduce((n, r) => n + r.entries, 0)).toBe(data.rate_changes!.length);
    expect(seeded.monthly.reduce((n, r) => n + r.entries, 0)).toBe(data.rate_changes!.length);

    const plain = await createTestStore(dialect);
    try {
      for (const part of demoDatasetParts({ scale: 1, today: TODAY }))
        await importDataset(plain.store, DATASET_PLANS, part);
      expect(seeded).toEqual(await rateChangeCounts(plain.store));
    } finally {
      await plain.close();
    }
  });

  if (dialect === 'sqlite') {
    it('changes nothing when it fails part way', async () => {
      const schemaBefore = await sqliteSchema(t.store);
      let parts = 0;
      const failing = seedDemoData(t.store, DATASET_PLANS, { scale: 1, today: TODAY }, () => {
        if (++parts === 3) throw new Error('disk full');
      });
      await expect(failing).rejects.toThrow('disk full');
      expect(await rowCount(t.store, 'companies')).toBe(0);
      expect(await rowCount(t.store, 'rate_changes')).toBe(0);
      expect(await sqliteSchema(t.store)).toEqual(schemaBefore);
      expect(t.store.sqlite!.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(t.store.sqlite!.inTransaction).toBe(false);
    });
  }
});
