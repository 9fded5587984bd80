import { formatInstant, isValidDate, localDate, offsetMinutes } from '../../kernel/time';
import type {
  Dataset,
  DatasetCompany,
  DatasetEvent,
  DatasetEventDocument,
  DatasetFacility,
  DatasetFlipper,
  DatasetInvoiceableItem,
  DatasetLedger,
  DatasetLedgerDiscount,
  DatasetLedgerInsurance,
  DatasetLedgerService,
  DatasetPaymentMethod,
  DatasetRateAppliedAction,
  DatasetRateChange,
  DatasetTenant,
  DatasetUnit,
} from '../dataset/dataset.types';
import {
  APPLIED_RATES,
  CARD_BRANDS,
  COMPANIES,
  DISCOUNTS,
  DOCUMENT_BODIES,
  EMPLOYEES,
  FEES,
  FIRST_NAMES,
  INSURANCE_PLANS,
  INSURANCE_PROVIDER,
  LAST_NAMES,
  PACKING_COLOURS,
  PACKING_GOODS,
  RATE_CHANGE_AUTHORS,
  RETAIL,
  SERVICES,
  SOURCES,
  STREETS,
  UNIT_SIZES,
  type FacilityPlan,
} from './catalog';
import { hashString, mix32, ScopedIds, SeededRandom } from './random';

export interface DemoOptions {
  /** Multiplies the tenants of every facility, and with them everything hanging off a tenant. */
  scale: number;
  /** The reference date (YYYY-MM-DD): the data's "today", so the default date ranges show data. */
  today: string;
  /**
   * The instant the data is as of (ISO 8601, on the reference date): nothing is dated after it in
   * its facility's zone, whose "today" is its local date then. Without it, each facility's today is
   * the reference date and the data runs to its end.
   */
  now?: string;
}

/**
 * Tenants per generated part (about 2,500 records). Small parts keep memory flat and let most
 * objects die young, which halves the time spent collecting garbage at large scales.
 */
const TENANTS_PER_PART = 100;
/** At most this many days up to the day after the reference date get move-ins every day. */
const RECENT_DAYS = 47;
/** Rate changes reach back this far. */
const HISTORY_DAYS = 730;
const DAY_MS = 86_400_000;
const SEED = hashString('facility-ops demo data v1');

/**
 * Every id's 32-bit key says where it belongs: 2 bits of scope, then the facility (4 bits), then the
 * tenant (18 bits) and the id's place among the tenant's (8 bits). A tenant's records therefore get
 * the same ids at every scale, and a larger seed loaded over a smaller one extends it.
 */
const MAX_TENANTS_PER_FACILITY = 1 << 18;
const directoryIds = () => new ScopedIds(SEED, 2 << 30, 1 << 20);
const facilityIds = (facility: number) => new ScopedIds(SEED, ((1 << 30) | (facility << 26)) >>> 0, 1 << 26);
/** The fixed places of a tenant's first ids; `next` hands out the ones after them. */
const TENANT_ID = 0;
const UNIT_ID = 1;
const LEDGER_ID = 2;
const tenantIds = (facility: number, tenant: number) =>
  new ScopedIds(SEED, ((facility << 26) | (tenant << 8)) >>> 0, 1 << 8, LEDGER_ID + 1);

export interface DemoFacility {
  id: string;
  name: string;
  timeZone: string;
}
export interface DemoCompany {
  id: string;
  name: string;
  facilities: DemoFacility[];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const money = (cents: number) => cents / 100;

/** Day arithmetic and local times for the generator, memoized: the same few thousand days recur. */
class DemoCalendar {
  private readonly dates = new Map<number, string>();
  private readonly days = new Map<string, number>();
  private readonly offsets = new Map<string, number | null>();

  /** Days since 1970-01-01 of a YYYY-MM-DD date. */
  day(date: string): number {
    let day = this.days.get(date);
    if (day === undefined) {
      day = Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
      this.days.set(date, day);
    }
    return day;
  }

  date(day: number): string {
    let date = this.dates.get(day);
    if (date === undefined) {
      date = new Date(day * DAY_MS).toISOString().slice(0, 10);
      this.dates.set(day, date);
    }
    return date;
  }

  addDays(date: string, days: number): string {
    return this.date(this.day(date) + days);
  }

  /** A UTC instant written as `YYYY-MM-DDTHH:mm:ssZ`. */
  utcInstant(ms: number): string {
    const day = Math.floor(ms / DAY_MS);
    const seconds = Math.floor((ms - day * DAY_MS) / 1000);
    return (
      `${this.date(day)}T${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:` +
      `${pad(seconds % 60)}Z`
    );
  }

  /** The instant of a local wall-clock time in the zone, written with the zone's offset. */
  localInstant(date: string, minuteOfDay: number, zone: string): string {
    const key = `${zone}|${date}`;
    let offset = this.offsets.get(key);
    const midnight = this.day(date) * DAY_MS;
    if (offset === undefined) {
      // One offset serves the whole day unless the zone changes its clocks that day.
      const early = offsetMinutes(new Date(midnight - 14 * 3_600_000), zone);
      const late = offsetMinutes(new Date(midnight + 38 * 3_600_000), zone);
      offset = early === late ? early : null;
      this.offsets.set(key, offset);
    }
    if (offset === null) {
      const wall = midnight + minuteOfDay * 60_000;
      let utc = wall - offsetMinutes(new Date(wall), zone) * 60_000;
      utc = wall - offsetMinutes(new Date(utc), zone) * 60_000;
      return formatInstant(new Date(utc).toISOString(), zone);
    }
    const abs = Math.abs(offset);
    return (
      `${date}T${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}:00` +
      `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
    );
  }
}

/** The local wall-clock minute of the day (0 to 1439) at the instant in the zone. */
function localMinuteOfDay(instant: Date, zone: string): number {
  const localMs = instant.getTime() + offsetMinutes(instant, zone) * 60_000;
  return Math.floor((((localMs % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

function emptyDataset(): Dataset {
  return { version: 1 };
}

interface Lists {
  tenants: DatasetTenant[];
  units: DatasetUnit[];
  ledgers: DatasetLedger[];
  ledger_insurances: DatasetLedgerInsurance[];
  ledger_services: DatasetLedgerService[];
  ledger_discounts: DatasetLedgerDiscount[];
  rate_applied_actions: DatasetRateAppliedAction[];
  events: DatasetEvent[];
  event_documents: DatasetEventDocument[];
  invoiceable_items: DatasetInvoiceableItem[];
  payment_methods: DatasetPaymentMethod[];
  rate_changes: DatasetRateChange[];
}

function emptyLists(): Lists {
  return {
    tenants: [],
    units: [],
    ledgers: [],
    ledger_insurances: [],
    ledger_services: [],
    ledger_discounts: [],
    rate_applied_actions: [],
    events: [],
    event_documents: [],
    invoiceable_items: [],
    payment_methods: [],
    rate_changes: [],
  };
}

function checkOptions(options: DemoOptions): void {
  if (!Number.isInteger(options.scale) || options.scale < 1) {
    throw new RangeError(`scale must be a whole number of at least 1, got ${options.scale}`);
  }
  if (!isValidDate(options.today)) throw new RangeError(`today must be YYYY-MM-DD, got ${options.today}`);
  if (options.now !== undefined && Number.isNaN(Date.parse(options.now))) {
    throw new RangeError(`now must be an ISO 8601 instant, got ${options.now}`);
  }
  const largest = Math.max(...COMPANIES.flatMap((c) => c.facilities.map((f) => f.tenants)));
  if (largest * options.scale > MAX_TENANTS_PER_FACILITY) {
    throw new RangeError(
      `scale ${options.scale} is too large: at most ${MAX_TENANTS_PER_FACILITY} tenants per facility`,
    );
  }
}

/** The companies and facilities of the demo data with their ids, the same at every scale and date. */
export function demoDirectory(): DemoCompany[] {
  const ids = directoryIds();
  const companies = COMPANIES.map((plan) => ({
    id: ids.next(),
    name: plan.name,
    facilities: [] as DemoFacility[],
  }));
  COMPANIES.forEach((plan, c) => {
    for (const facility of plan.facilities) {
      companies[c].facilities.push({ id: ids.next(), name: facility.name, timeZone: facility.timeZone });
    }
  });
  return companies;
}

/**
 * The demo data as a sequence of datasets, each importable on its own once the ones before it are
 * loaded: first companies, facilities and flags, then each facility in blocks of tenants with
 * everything that hangs off them. Pure: the same options always give the same records.
 */
export function* demoDatasetParts(options: DemoOptions): Generator<Dataset> {
  checkOptions(options);
  const directory = demoDirectory();
  const calendar = new DemoCalendar();

  const companies: DatasetCompany[] = directory.map((c) => ({ id: c.id, name: c.name }));
  const facilities: DatasetFacility[] = [];
  directory.forEach((company, c) =>
    company.facilities.forEach((facility, f) => {
      const plan = COMPANIES[c].facilities[f];
      facilities.push({
        id: facility.id,
        company_id: company.id,
        name: facility.name,
        time_zone: facility.timeZone,
        tenant_payments_disabled: plan.tenantPaymentsDisabled ?? false,
      });
    }),
  );
  const [c0, c1, c2, c3] = directory;
  const flippers: DatasetFlipper[] = [
    { name: 'esign_documents', enabled_globally: true },
    { name: 'rate_change_updates', enabled_globally: true },
    { name: 'retail_payments', company_ids: [c0.id, c2.id] },
    { name: 'rental_center', company_ids: [c0.id] },
    { name: 'tenant_portal_v2', facility_ids: [c0.facilities[0].id, c1.facilities[1].id] },
    { name: 'kiosk_mode', facility_ids: [c0.facilities[3].id, c3.facilities[0].id] },
    { name: 'beta_reporting' },
  ];
  yield { version: 1, companies, facilities, flippers };

  let facilityIndex = 0;
  for (const [c, company] of directory.entries()) {
    for (const [f, facility] of company.facilities.entries()) {
      const plan = COMPANIES[c].facilities[f];
      const generator = new FacilityGenerator(
        calendar,
        facilityIndex,
        facility,
        plan,
        options,
        c === 0 && f === 0,
      );
      yield* generator.parts();
      facilityIndex++;
    }
  }
}

/** All of the demo data in one dataset (the parts merged). */
export function demoDataset(options: DemoOptions): Dataset {
  const merged: Record<string, unknown[]> = {};
  for (const part of demoDatasetParts(options)) {
    for (const [key, value] of Object.entries(part)) {
      if (!Array.isArray(value)) continue;
      const list = (merged[key] ??= []);
      for (const record of value) list.push(record);
    }
  }
  return { ...emptyDataset(), ...merged };
}

/** Number of records in a dataset (every list entry; amount tiers are part of their item). */
export function recordCount(dataset: Dataset): number {
  let total = 0;
  for (const value of Object.values(dataset)) if (Array.isArray(value)) total += value.length;
  return total;
}

class FacilityGenerator {
  private readonly tenantCount: number;
  private readonly zone: string;
  private readonly calendar: DemoCalendar;
  private readonly seed: number;
  /**
   * The streams of what is being generated: the facility's for its items, then each tenant's own,
   * so a tenant's records do not depend on the tenants before it (nor on the scale).
   */
  private random: SeededRandom;
  private ids: ScopedIds;
  /** The facility's local date at the data's "now" (the reference date without one). */
  private readonly today: string;
  /** The local minute of "now" on that date: nothing on it is later. */
  private readonly lastMinute: number;

  constructor(
    calendar: DemoCalendar,
    private readonly facilityIndex: number,
    private readonly facility: DemoFacility,
    private readonly plan: FacilityPlan,
    private readonly options: DemoOptions,
    /** The first demo facility also gets long lists (documents, items) that run past one page. */
    private readonly showcase: boolean,
  ) {
    this.tenantCount = plan.tenants * options.scale;
    this.zone = plan.timeZone;
    this.calendar = calendar;
    this.seed = mix32(SEED ^ mix32(facilityIndex + 1));
    this.random = new SeededRandom(this.seed);
    this.ids = facilityIds(facilityIndex);
    const now = options.now === undefined ? null : new Date(options.now);
    this.today = now ? localDate(now, this.zone) : options.today;
    this.lastMinute = now ? localMinuteOfDay(now, this.zone) : 24 * 60 - 1;
  }

  /** The instant of a local time, never later than "now" on the facility's today. */
  private at(date: string, minuteOfDay: number): string {
    const minute = date === this.today ? Math.min(minuteOfDay, this.lastMinute) : minuteOfDay;
    return this.calendar.localInstant(date, minute, this.zone);
  }

  *parts(): Generator<Dataset> {
    for (let start = 0; start < this.tenantCount; start += TENANTS_PER_PART) {
      const lists = emptyLists();
      if (start === 0) {
        this.facilityItems(lists);
        this.retailSales(lists);
      }
      const end = Math.min(start + TENANTS_PER_PART, this.tenantCount);
      for (let k = start; k < end; k++) this.tenant(lists, k);
      yield { version: 1, ...lists };
    }
  }

  private facilityItems(lists: Lists): void {
    const r = this.random;
    const facilityId = this.facility.id;
    const tier = (amount: number, kind: 'amount' | 'percent', limit: number | null = null) => ({
      id: this.ids.next(),
      amount,
      kind,
      limit,
    });

    for (const fee of FEES) {
      if (this.plan.withoutFees?.includes(fee.category)) continue;
      lists.invoiceable_items.push({
        id: this.ids.next(),
        facility_id: facilityId,
        kind: 'fee',
        product_code: fee.code,
        description: fee.description,
        short_description: fee.tiers.length > 1 ? `${fee.description} (tiered)` : null,
        required_at_move_in: fee.requiredAtMoveIn ?? false,
        required_at_transfer: fee.requiredAtTransfer ?? false,
        show_in_sales_center: true,
        invoiceable_amounts: fee.tiers.map((t) => tier(t.amount, t.kind, t.limit ?? null)),
        tax_total: 0,
        total: fee.tiers[0].amount,
        fee_category: fee.category,
      });
    }

    for (const insurance of INSURANCE_PLANS) {
      lists.invoiceable_items.push({
        id: this.ids.next(),
        facility_id: facilityId,
        kind: 'insurance',
        product_code: insurance.code,
        description: `Tenant Protection ${insurance.coverage.toLocaleString('en-US')}`,
        short_description: `Protection ${insurance.coverage}`,
        required_at_move_in: false,
        required_at_transfer: false,
        show_in_sales_center: true,
        invoiceable_amounts: [tier(insurance.monthly, 'amount')],
        tax_total: 0,
        total: insurance.monthly,
        coverage_amount: insurance.coverage,
        coverage_percentage: 100,
        provider_name: INSURANCE_PROVIDER.name,
        provider_key: INSURANCE_PROVIDER.key,
      });
    }

    SERVICES.forEach((service, index) => {
      // One service is priced in tiers, so "Variable" shows up among services too.
      const tiers =
        index === 0
          ? [tier(service.amount, 'amount'), tier(service.amount + 10, 'amount', 100)]
          : [tier(service.amount, 'amount')];
      lists.invoiceable_items.push({
        id: this.ids.next(),
        facility_id: facilityId,
        kind: 'service',
        product_code: service.code,
        description: service.description,
        short_description: null,
        required_at_move_in: false,
        required_at_transfer: false,
        show_in_sales_center: index !== 3,
        invoiceable_amounts: tiers,
        tax_total: 0,
        total: service.amount,
      });
    });

    const retail = (
      description: string,
      code: string,
      price: number,
      quantity: number,
      eligible: boolean,
      lock: boolean,
    ) => {
      const priceCents = Math.round(price * 100);
      const taxCents = Math.round(priceCents * this.plan.taxRate);
      lists.invoiceable_items.push({
        id: this.ids.next(),
        facility_id: facilityId,
        kind: 'retail',
        product_code: code,
        description,
        short_description: description.length > 14 ? description.slice(0, 14) : null,
        required_at_move_in: false,
        required_at_transfer: false,
        show_in_sales_center: true,
        invoiceable_amounts: [tier(money(priceCents), 'amount')],
        tax_total: money(taxCents),
        total: money(priceCents + taxCents),
        quantity,
        is_rental_center_lock: lock,
        rental_center_eligible: eligible,
      });
    };
    for (const item of RETAIL) {
      retail(
        item.description,
        item.code,
        item.price,
        item.quantity,
        item.rentalCenterEligible,
        item.isRentalCenterLock ?? false,
      );
    }
    if (this.showcase) {
      for (const good of PACKING_GOODS) {
        for (const colour of PACKING_COLOURS) {
          retail(
            `${good.description}, ${colour}`,
            `RTL-${asciiSlug(good.description).toUpperCase().slice(0, 8)}-${colour.slice(0, 3).toUpperCase()}`,
            good.price,
            r.between(0, 60),
            r.chance(0.5),
            false,
          );
        }
      }
    }
  }

  private tenant(lists: Lists, k: number): void {
    this.random = SeededRandom.derive(this.seed, k);
    this.ids = tenantIds(this.facilityIndex, k);
    const r = this.random;
    const today = this.today;
    const facilityId = this.facility.id;
    // A fifth of each scale-1 block of tenants moved in on the recent days, up to the facility's
    // local "today" (before "now"), so that day has rate applied actions whatever its zone.
    const block = this.plan.tenants;
    const recentCount = Math.max(6, Math.round(block * 0.2));
    const recentDays = Math.min(RECENT_DAYS, Math.max(3, Math.floor(recentCount / 2)));
    const place = k % block;

    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const tenantId = this.ids.at(TENANT_ID);
    lists.tenants.push({
      id: tenantId,
      facility_id: facilityId,
      first_name: first,
      last_name: last,
      email: r.chance(0.9) ? `${asciiSlug(first)}.${asciiSlug(last)}${k}@example.com` : null,
      phone: r.chance(0.95) ? `${this.plan.phonePrefix}${pad(k % 10000, 4)}` : null,
    });
    const unit = this.unit(lists, this.ids.at(UNIT_ID), `${'ABCDEFGH'[k % 8]}-${101 + Math.floor(k / 8)}`, k);
    const ledgerId = this.ids.at(LEDGER_ID);
    lists.ledgers.push({ id: ledgerId, facility_id: facilityId, tenant_id: tenantId, unit_id: unit.id });
    // Some units stand empty, in buildings of their own.
    if (r.chance(0.1))
      this.unit(lists, this.ids.next(), `${'JKLM'[k % 4]}-${101 + Math.floor(k / 4)}`, k * 5);

    const moveInDate =
      place < recentCount
        ? this.calendar.addDays(today, -(place % recentDays))
        : this.calendar.addDays(today, -recentDays - r.int(1400));
    const moveInMinute = r.between(8 * 60, 18 * 60 - 1);
    const moveInAt = this.at(moveInDate, moveInMinute);
    const transfer = k > 0 && r.chance(0.05);
    const applied = r.pick(APPLIED_RATES);
    const employee = r.chance(0.7) ? r.pick(EMPLOYEES) : null;
    lists.rate_applied_actions.push({
      id: this.ids.next(),
      facility_id: facilityId,
      rate_info: {
        applied_rate: { name: applied.name, amount: money(Math.round(unit.rate * 100 * applied.factor)) },
        standard_rate: unit.rate,
      },
      source: employee ? r.pick(SOURCES.slice(1)) : 'Website',
      completed_on: moveInDate,
      completed_by: employee?.name ?? '',
      employee_id: employee?.employeeId ?? '',
      user_id: employee?.userId ?? '',
      time_completed: moveInAt,
      event: transfer ? 'TransferUnitEvent' : 'MoveInUnitEvent',
      // A transfer comes from the previous tenant's ledger, which an earlier part may hold.
      old_ledger_id: transfer ? tenantIds(this.facilityIndex, k - 1).at(LEDGER_ID) : '',
      new_ledger_id: ledgerId,
      unit_id: unit.id,
      lead_id: this.ids.next(),
    });

    const hasInsurance = this.insurance(lists, ledgerId, moveInDate);
    if (r.chance(0.3)) this.services(lists, ledgerId, moveInDate);
    if (r.chance(0.25)) {
      const discount = r.pick(DISCOUNTS);
      lists.ledger_discounts.push({
        id: this.ids.next(),
        ledger_id: ledgerId,
        name: discount.name,
        kind: discount.kind,
        description: discount.description,
        start_date: moveInDate,
        end_date: discount.months ? this.calendar.addDays(moveInDate, discount.months * 30) : null,
        min_occupancy_months: discount.months,
      });
    }

    this.events(lists, ledgerId, moveInDate, moveInMinute, hasInsurance, this.showcase && k === 0);
    if (r.chance(0.5)) this.paymentMethod(lists, tenantId, first, last, k);

    // Ten rate changes per tenant on average, exactly: the two tenants of a pair share twenty.
    const pairDelta = SeededRandom.derive(this.seed ^ 0x5bd1e995, k >> 1).between(-5, 5);
    const historyFromMs = (this.calendar.day(this.options.today) - HISTORY_DAYS) * DAY_MS;
    this.rateChanges(lists, tenantId, unit, historyFromMs, k % 2 === 0 ? 10 + pairDelta : 10 - pairDelta);
  }

  /** Retail sales without a ledger: payment events whose only document is a receipt. */
  private retailSales(lists: Lists): void {
    for (let day = 0; day < 5; day++) {
      const date = this.calendar.addDays(this.today, -day);
      const eventId = this.ids.next();
      const createdAt = this.at(date, 12 * 60 + day * 17);
      lists.events.push({
        id: eventId,
        facility_id: this.facility.id,
        type: 'successful_payment_event',
        ledger_id: null,
        created_at: createdAt,
      });
      lists.event_documents.push(
        this.document(eventId, 'Retail Receipt', createdAt, false, DOCUMENT_BODIES.retailReceipt),
      );
    }
  }

  private unit(lists: Lists, id: string, name: string, sizeIndex: number): DatasetUnit {
    const r = this.random;
    const size = UNIT_SIZES[sizeIndex % UNIT_SIZES.length];
    const rateCents = r.between(size.min, size.max) * 100 + (r.chance(0.3) ? 50 : 0);
    const unit: DatasetUnit = { id, facility_id: this.facility.id, name, rate: money(rateCents) };
    lists.units.push(unit);
    return unit;
  }

  /** Returns whether the ledger has a current policy (for the insurance addendum). */
  private insurance(lists: Lists, ledgerId: string, moveInDate: string): boolean {
    const r = this.random;
    const today = this.today;
    const policy = (effective: string, cancel: string | null) => {
      const plan = r.pick(INSURANCE_PLANS);
      lists.ledger_insurances.push({
        id: this.ids.next(),
        ledger_id: ledgerId,
        effective_date: effective,
        cancel_date: cancel,
        amount: plan.monthly,
        data: {
          description: `Tenant Protection ${plan.coverage}`,
          retain_type: 'percent',
          product_code: plan.code,
          policy_number: `POL-${pad(r.int(1_000_000), 6)}`,
          retain_amount: '0.0',
          coverage_amount: `${plan.coverage}.0`,
          coverage_percentage: '100.0',
          insurance_provider_key: INSURANCE_PROVIDER.key,
        },
      });
    };
    const roll = r.next();
    const settled = moveInDate < this.calendar.addDays(today, -1);
    if (roll < 0.55 || (!settled && roll < 0.8)) {
      policy(moveInDate, null);
      return true;
    }
    if (roll < 0.7) {
      // Upgraded: the first policy was cancelled when the second began.
      const switchDate = this.calendar.addDays(
        moveInDate,
        r.between(1, Math.min(60, this.calendar.day(today) - this.calendar.day(moveInDate))),
      );
      policy(moveInDate, switchDate);
      policy(switchDate, null);
      return true;
    }
    if (roll < 0.8) {
      // Cancelled in the past: no current policy.
      policy(moveInDate, this.calendar.addDays(today, -1));
      return false;
    }
    if (roll < 0.85) {
      // Cancellation already booked for next month: still current.
      policy(moveInDate, this.calendar.addDays(today, r.between(5, 35)));
      return true;
    }
    return false;
  }

  private services(lists: Lists, ledgerId: string, moveInDate: string): void {
    const r = this.random;
    const count = r.between(1, 2);
    const first = r.int(SERVICES.length);
    for (let s = 0; s < count; s++) {
      const service = SERVICES[(first + s) % SERVICES.length];
      const cancelled = r.chance(0.2) && moveInDate < this.today;
      lists.ledger_services.push({
        id: this.ids.next(),
        ledger_id: ledgerId,
        effective_date: this.calendar.addDays(moveInDate, s * 14),
        cancel_date: cancelled ? this.today : null,
        amount: service.amount,
        data: { description: service.description, product_code: service.code },
      });
    }
  }

  private document(
    eventId: string,
    description: string,
    createdAt: string,
    esignable: boolean,
    body: string,
    isRelevant = true,
  ): DatasetEventDocument {
    return {
      id: this.ids.next(),
      event_id: eventId,
      description,
      type: 'PrintTemplate',
      is_relevant: isRelevant,
      esignable,
      created_at: createdAt,
      body,
    };
  }

  private events(
    lists: Lists,
    ledgerId: string,
    moveInDate: string,
    moveInMinute: number,
    hasInsurance: boolean,
    longPacket: boolean,
  ): void {
    const r = this.random;
    const today = this.today;
    const facilityId = this.facility.id;
    const event = (type: DatasetEvent['type'], date: string, minute: number) => {
      const created: DatasetEvent = {
        id: this.ids.next(),
        facility_id: facilityId,
        type,
        ledger_id: ledgerId,
        created_at: this.at(date, minute),
      };
      lists.events.push(created);
      return created;
    };

    const moveIn = event('move_in_unit_event', moveInDate, moveInMinute);
    const docs = lists.event_documents;
    docs.push(
      this.document(moveIn.id, 'Rental Agreement', moveIn.created_at, true, DOCUMENT_BODIES.rentalAgreement),
    );
    if (hasInsurance) {
      docs.push(
        this.document(
          moveIn.id,
          'Insurance Addendum',
          moveIn.created_at,
          true,
          DOCUMENT_BODIES.insuranceAddendum,
        ),
      );
    }
    docs.push(this.document(moveIn.id, 'Gate Access', moveIn.created_at, false, DOCUMENT_BODIES.gateAccess));
    if (r.chance(0.3)) {
      docs.push(
        this.document(
          moveIn.id,
          'Marketing Preferences',
          moveIn.created_at,
          false,
          DOCUMENT_BODIES.marketingConsent,
          false,
        ),
      );
    }
    if (longPacket) {
      // One move-in with a long packet, so the document list has a second page.
      for (let n = 1; n <= 120; n++) {
        docs.push(
          this.document(
            moveIn.id,
            `Addendum ${n}`,
            moveIn.created_at,
            n % 10 === 0,
            DOCUMENT_BODIES.addendum,
          ),
        );
      }
    }

    // Monthly payments: up to the three most recent months since the move-in.
    const months = Math.floor((this.calendar.day(today) - this.calendar.day(moveInDate)) / 30);
    for (let m = Math.max(1, months - 2); m <= months; m++) {
      if (r.chance(0.2)) continue;
      const paid = event(
        'successful_payment_event',
        this.calendar.addDays(moveInDate, m * 30),
        r.between(7 * 60, 21 * 60),
      );
      docs.push(this.document(paid.id, 'Payment Receipt', paid.created_at, false, DOCUMENT_BODIES.receipt));
    }

    if (months >= 3 && r.chance(0.08)) {
      const outDate = this.calendar.addDays(moveInDate, r.between(60, months * 30));
      const out = event('move_out_unit_event', outDate < today ? outDate : today, r.between(9 * 60, 17 * 60));
      docs.push(
        this.document(out.id, 'Move-Out Statement', out.created_at, true, DOCUMENT_BODIES.moveOutStatement),
      );
      docs.push(
        this.document(out.id, 'Lock Removal Notice', out.created_at, false, DOCUMENT_BODIES.lockRemoval),
      );
    }
  }

  private paymentMethod(lists: Lists, tenantId: string, first: string, last: string, k: number): void {
    const r = this.random;
    const year = Number(this.options.today.slice(0, 4));
    const card = r.chance(0.8);
    lists.payment_methods.push({
      id: this.ids.next(),
      facility_id: this.facility.id,
      tenant_id: tenantId,
      kind: card ? 'credit_card' : 'ach',
      first_name: first,
      last_name: last,
      reuseable: true,
      card_last4: card ? pad(r.int(10000), 4) : null,
      card_type: card ? r.pick(CARD_BRANDS) : null,
      expiration_date: card ? `${pad(r.between(1, 12))}/${pad((year + r.between(1, 4)) % 100)}` : null,
      billing_address: card
        ? {
            address1: `${r.between(1, 400)} ${r.pick(STREETS)}`,
            address2: k % 7 === 0 ? `Apt ${r.between(1, 40)}` : null,
            city: this.plan.city,
            state: this.plan.region,
            postal_code: this.plan.postalCode,
            country: this.plan.country,
          }
        : null,
    });
  }

  private rateChanges(
    lists: Lists,
    tenantId: string,
    unit: DatasetUnit,
    fromMs: number,
    count: number,
  ): void {
    const r = this.random;
    const endMs = (this.calendar.day(this.options.today) + 1) * DAY_MS - 1000;
    // Those after "now" happen at it: the other records, and the days they fall on, stay the same.
    const lastMs =
      this.options.now === undefined ? endMs : Math.floor(Date.parse(this.options.now) / 1000) * 1000;
    const span = Math.max(1000, endMs - fromMs);
    const times: number[] = [];
    for (let n = 0; n < count; n++) {
      times.push(Math.min(lastMs, fromMs + Math.floor((r.next() * span) / 1000) * 1000));
    }
    times.sort((a, b) => a - b);
    let rateCents = Math.round(unit.rate * 100 * 0.8);
    for (const at of times) {
      // Mostly increases of 3-9%, now and then a cut.
      const factor = r.chance(0.1) ? 1 - r.between(2, 6) / 100 : 1 + r.between(3, 9) / 100;
      const next = Math.max(100, Math.round(rateCents * factor));
      const changedAt = this.calendar.utcInstant(at);
      lists.rate_changes.push({
        id: this.ids.next(),
        facility_id: this.facility.id,
        tenant_id: tenantId,
        unit_id: unit.id,
        changed_at: changedAt,
        old_rate: money(rateCents),
        new_rate: money(next),
        effective_on_date: this.calendar.date(Math.floor(at / DAY_MS) + 30),
        created_by: r.chance(0.85) ? r.pick(RATE_CHANGE_AUTHORS) : null,
      });
      rateCents = next;
    }
  }
}
