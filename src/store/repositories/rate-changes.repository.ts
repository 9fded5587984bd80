import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type {
  RateChangePage,
  RateChangesRepository,
  RateChangeWindow,
} from '../../domain/rate-changes/rate-changes.ports';
import type { RateChange } from '../../domain/rate-changes/rate-changes.types';
import { centsToAmount } from '../../domain/shared/money';
import type { Db } from '../database';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';

/** A rate change with the names and zone its item shows. */
export interface RateChangeDetailRow {
  id: string;
  facility_id: string;
  facility_name: string;
  time_zone: string;
  tenant_id: string;
  first_name: string;
  last_name: string;
  unit_id: string;
  unit_name: string;
  changed_at: string;
  old_rate_cents: number;
  new_rate_cents: number;
  effective_on_date: string;
  created_by: number | null;
}

export function rateChangeRowToRateChange(row: RateChangeDetailRow): RateChange {
  return {
    id: row.id,
    facilityId: row.facility_id,
    facilityName: row.facility_name,
    timeZone: row.time_zone,
    tenantId: row.tenant_id,
    tenantName: `${row.first_name} ${row.last_name}`,
    unitId: row.unit_id,
    unitName: row.unit_name,
    changedAt: row.changed_at,
    oldRate: centsToAmount(row.old_rate_cents),
    newRate: centsToAmount(row.new_rate_cents),
    effectiveOnDate: row.effective_on_date,
    createdBy: row.created_by,
  };
}

/** Keys of rate change rows: ids, or on SQLite rowids. */
interface RowKeys {
  column: 'id' | 'rowid';
  values: readonly (string | number)[];
}

interface WindowCounts {
  /** Matching rows (of the creator when one is given). */
  entries: number;
  /** Rows in the time window, of every creator. */
  windowEntries: number;
  /** Every row of the company. */
  companyEntries: number;
}

const DAY_MS = 86_400_000;
const midnight = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => midnight(ms).slice(0, 10);

/**
 * Splits [after, before) into whole UTC days, counted from the per-day tables, and the partial days
 * at either end, counted exactly from the window index (at most two days of rows).
 */
export function splitWindow(after: string, before: string) {
  const firstWhole = Math.ceil(Date.parse(after) / DAY_MS) * DAY_MS;
  const endWhole = Math.floor(Date.parse(before) / DAY_MS) * DAY_MS;
  if (firstWhole >= endWhole) {
    return { days: null, head: [after, before] as const, tail: null };
  }
  return {
    days: [dayOf(firstWhole), dayOf(endWhole)] as const,
    head: [after, midnight(firstWhole)] as const,
    tail: [midnight(endWhole), before] as const,
  };
}

// Relative costs on SQLite, measured on 1,000,000 rows (bench/README.md): walking the ordering
// index costs 1 per entry (3 when created_by is checked); the window plan costs 1 per entry of the
// time window plus 4 per match it sorts.
const WALK_COST = 1;
const WALK_COST_FILTERED = 3;
const SCAN_COST = 1;
const SORT_COST = 4;

export type PagePlan = 'ordering' | 'window';

/**
 * The cheaper way to a page: walk the ordering index until enough matches are found (cheap when
 * matches are dense), or read the time window from the window index and sort it (cheap when the
 * window holds few rows). Only SQLite needs telling; PostgreSQL's planner weighs the same choice.
 */
export function choosePagePlan(counts: WindowCounts, wanted: number, filtered: boolean): PagePlan {
  if (counts.entries === 0) return 'window';
  const walked = Math.min(counts.companyEntries, (wanted * counts.companyEntries) / counts.entries);
  const walk = walked * (filtered ? WALK_COST_FILTERED : WALK_COST);
  const scan = counts.windowEntries * SCAN_COST + counts.entries * SORT_COST;
  return walk <= scan ? 'ordering' : 'window';
}

export class SqlRateChangesRepository implements RateChangesRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  /**
   * One page of the window in the contract's order (facility name, tenant name, changed_at, id;
   * byte-wise) and the number of matching rows. Neither grows with the company's total rows: the
   * count reads day totals plus two partial days, the page reads about offset + limit index entries
   * or the window's own entries, whichever is fewer.
   */
  async pageInWindow(window: RateChangeWindow, offset: number, limit: number): Promise<RateChangePage> {
    if (!this.postgres) return this.readPage(this.db, window, offset, limit);
    // One snapshot, so total_entries always describes the page read with it.
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => this.readPage(trx, window, offset, limit));
  }

  private async readPage(
    db: Kysely<Database>,
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<RateChangePage> {
    const counts = await this.countWindow(db, window);
    if (counts.entries <= offset) return { totalEntries: counts.entries, rateChanges: [] };
    const wanted = Math.min(offset + limit, counts.entries);
    const plan = choosePagePlan(counts, wanted, window.createdBy !== null);
    const keys = await this.pageKeys(db, window, offset, limit, plan);
    const rows = await this.detailsByKeys(db, keys);
    const rateChanges: RateChange[] = [];
    for (const row of rows) if (row !== null) rateChanges.push(rateChangeRowToRateChange(row));
    return { totalEntries: counts.entries, rateChanges };
  }

  private indexedBy(index: 'rate_changes_order' | 'rate_changes_window'): RawBuilder<unknown> {
    return this.postgres ? sql`` : sql`indexed by ${sql.id(index)}`;
  }

  private async countWindow(db: Kysely<Database>, window: RateChangeWindow): Promise<WindowCounts> {
    const { companyId, createdBy } = window;
    const split = splitWindow(window.after, window.before);
    const exact = (range: readonly [string, string] | null, creator: number | null) =>
      range === null
        ? sql`0`
        : sql`(select count(*) from rate_changes ${this.indexedBy('rate_changes_window')}
               where company_id = ${companyId} and changed_at >= ${range[0]} and changed_at < ${range[1]}
               ${creator === null ? sql`` : sql`and created_by = ${creator}`})`;
    const days = (creator: number | null) => {
      if (split.days === null) return sql`0`;
      const [first, end] = split.days;
      return creator === null
        ? sql`(select coalesce(sum(entries), 0) from rate_change_daily_counts
               where company_id = ${companyId} and day >= ${first} and day < ${end})`
        : sql`(select coalesce(sum(entries), 0) from rate_change_creator_daily_counts
               where company_id = ${companyId} and created_by = ${creator} and day >= ${first} and day < ${end})`;
    };
    const total = (creator: number | null) =>
      sql`${days(creator)} + ${exact(split.head, creator)} + ${exact(split.tail, creator)}`;
    // Only SQLite's plan choice reads window_entries and company_entries.
    const companyTotal = sql`(select coalesce(sum(entries), 0) from rate_change_daily_counts
                              where company_id = ${companyId})`;
    const result = await sql<{ entries: number; window_entries: number; company_entries: number }>`
      select ${total(createdBy)} as entries,
             ${createdBy === null || this.postgres ? sql`0` : total(null)} as window_entries,
             ${this.postgres ? sql`0` : companyTotal} as company_entries`.execute(db);
    const row = result.rows[0];
    const entries = Number(row.entries);
    return {
      entries,
      windowEntries: createdBy === null ? entries : Number(row.window_entries),
      companyEntries: Number(row.company_entries),
    };
  }

  /**
   * The page's keys in order: rowids on SQLite (each index entry carries it, and a row is then one
   * B-tree search away instead of two through the id index), ids on PostgreSQL.
   */
  private async pageKeys(
    db: Kysely<Database>,
    window: RateChangeWindow,
    offset: number,
    limit: number,
    plan: PagePlan,
  ): Promise<RowKeys> {
    const index = plan === 'ordering' ? 'rate_changes_order' : 'rate_changes_window';
    const column = this.postgres ? 'id' : 'rowid';
    const result = await sql<{ key: string | number }>`
      select ${sql.raw(column)} as "key" from rate_changes ${this.indexedBy(index)}
      where company_id = ${window.companyId}
        and changed_at >= ${window.after} and changed_at < ${window.before}
        ${window.createdBy === null ? sql`` : sql`and created_by = ${window.createdBy}`}
      order by facility_sort, tenant_sort, changed_at, id
      limit ${limit} offset ${offset}`.execute(db);
    return { column, values: result.rows.map((row) => row.key) };
  }

  /** Rate changes with their names, by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(RateChange | null)[]> {
    const rows = await this.detailsByKeys(this.db, { column: 'id', values: ids });
    return rows.map((row) => (row === null ? null : rateChangeRowToRateChange(row)));
  }

  /** `column` is one of the keys, passed as one parameter whatever their number. */
  private keyIn(column: 'id' | 'rowid', values: readonly (string | number)[]): RawBuilder<SqlBool> {
    return this.postgres
      ? sql<SqlBool>`${sql.raw(column)} = any(${[...values]})`
      : sql<SqlBool>`${sql.raw(column)} in (select value from json_each(${JSON.stringify(values)}))`;
  }

  /**
   * One lookup by primary key per table rather than a join: with a join PostgreSQL may hash the
   * whole tenants or units table instead of reading the few hundred rows a page names.
   */
  private async detailsByKeys(db: Kysely<Database>, keys: RowKeys): Promise<(RateChangeDetailRow | null)[]> {
    if (keys.values.length === 0) return [];
    const changes = await db
      .selectFrom('rate_changes')
      .select([
        sql<string | number>`${sql.raw(keys.column)}`.as('key'),
        'id',
        'facility_id',
        'tenant_id',
        'unit_id',
        'changed_at',
        'old_rate_cents',
        'new_rate_cents',
        'effective_on_date',
        'created_by',
      ])
      .where(this.keyIn(keys.column, unique(keys.values)))
      .execute();
    if (changes.length === 0) return keys.values.map(() => null);
    const facilities = await db
      .selectFrom('facilities')
      .select(['id', 'name', 'time_zone'])
      .where(this.keyIn('id', unique(changes.map((c) => c.facility_id))))
      .execute();
    const tenants = await db
      .selectFrom('tenants')
      .select(['id', 'first_name', 'last_name'])
      .where(this.keyIn('id', unique(changes.map((c) => c.tenant_id))))
      .execute();
    const units = await db
      .selectFrom('units')
      .select(['id', 'name'])
      .where(this.keyIn('id', unique(changes.map((c) => c.unit_id))))
      .execute();
    const facilityById = new Map(facilities.map((f) => [f.id, f]));
    const tenantById = new Map(tenants.map((t) => [t.id, t]));
    const unitById = new Map(units.map((u) => [u.id, u]));
    const byKey = new Map<string | number, RateChangeDetailRow>();
    for (const change of changes) {
      const facility = facilityById.get(change.facility_id);
      const tenant = tenantById.get(change.tenant_id);
      const unit = unitById.get(change.unit_id);
      // Foreign keys make these always present; a row without them is left out as missing.
      if (!facility || !tenant || !unit) continue;
      // Named fields, not a spread: spreading the driver's row objects costs about 2 µs a row.
      byKey.set(change.key, {
        id: change.id,
        facility_id: change.facility_id,
        facility_name: facility.name,
        time_zone: facility.time_zone,
        tenant_id: change.tenant_id,
        first_name: tenant.first_name,
        last_name: tenant.last_name,
        unit_id: change.unit_id,
        unit_name: unit.name,
        changed_at: change.changed_at,
        old_rate_cents: change.old_rate_cents,
        new_rate_cents: change.new_rate_cents,
        effective_on_date: change.effective_on_date,
        created_by: change.created_by,
      });
    }
    return keys.values.map((key) => byKey.get(key) ?? null);
  }
}

const unique = <T>(values: readonly T[]) => [...new Set(values)];
