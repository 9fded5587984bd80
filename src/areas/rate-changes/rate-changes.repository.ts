import { sql, type RawBuilder, type SqlBool } from 'kysely';
import * as RateChangeUpdate from './rate-change-update.contract';
import type {
  RateChangeListingPage,
  RateChangePage,
  RateChangesRepository,
  RateChangeWindow,
} from './rate-changes.ports';
import type { RateChange } from './rate-changes.types';
import { countedListings } from '../../store/byte-rows';
import { CompiledStatements } from '../../store/compiled-statements';
import type { ArrayRows, ByteRows, Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { keysetParts, sliceOfRows } from '../../store/keyset';
import type { Keyset, Slice, SliceRequest } from '../../kernel/connections';
import { utcMillis } from '../../kernel/time';

/**
 * A rate change's own columns as an array (see ArrayRows): id, facility_id, tenant_id, unit_id,
 * changed_at, old_rate_cents, new_rate_cents, effective_on_date, created_by, and the tenant's and
 * unit's names it keeps (migration 20261125130000_rate_change_names).
 */
type ChangeRow = [
  string,
  string,
  string,
  string,
  string,
  number,
  number,
  string,
  number | null,
  string,
  string,
];

const CHANGE_COLUMNS = sql`rc.id as id, rc.facility_id as facility_id, rc.tenant_id as tenant_id,
  rc.unit_id as unit_id, rc.changed_at as changed_at, rc.old_rate_cents as old_rate_cents,
  rc.new_rate_cents as new_rate_cents, rc.effective_on_date as effective_on_date, rc.created_by as created_by,
  rc.tenant_name as tenant_name, rc.unit_name as unit_name`;

/** A ChangeRow, then its facility's name and time zone. */
type NamedRow = [...ChangeRow, string, string];

function rateChangeOf(
  row: readonly [...ChangeRow, ...unknown[]],
  facilityName: string,
  timeZone: string,
): RateChange {
  return {
    id: row[0],
    facilityId: row[1],
    facilityName,
    timeZone,
    tenantId: row[2],
    tenantName: row[9],
    unitId: row[3],
    unitName: row[10],
    changedAt: row[4],
    oldRateCents: row[5],
    newRateCents: row[6],
    effectiveOnDate: row[7],
    createdBy: row[8],
  };
}

const namedRateChange = (row: readonly [...NamedRow, ...unknown[]]) => rateChangeOf(row, row[11], row[12]);

/**
 * What a rate change's listing is made from, as a NamedRow: select it, then a `where` on
 * rate_changes `rc` (the import and the migration that writes listings complete it).
 */
export const LISTING_SOURCE = `select rc.id, rc.facility_id, rc.tenant_id, rc.unit_id, rc.changed_at,
  rc.old_rate_cents, rc.new_rate_cents, rc.effective_on_date, rc.created_by, rc.tenant_name, rc.unit_name,
  f.name, f.time_zone from rate_changes rc join facilities f on f.id = rc.facility_id`;

/** The listing of a row of LISTING_SOURCE (see RateChangeUpdate.listing). */
export const listingOfRow = (row: readonly unknown[]): string =>
  RateChangeUpdate.listing(namedRateChange(row as unknown as NamedRow));

/**
 * PostgreSQL: the rows of rate changes by key, each a NamedRow followed by `extra` columns. `keys`
 * is a FROM item `k` with a column `key` naming rate_changes' ids; a key without a row is left
 * out. Given a join, PostgreSQL may hash the whole of rate_changes rather than look up the few
 * hundred rows a page names: a LATERAL subquery it cannot flatten (OFFSET 0) and correlated
 * subqueries for the facility make each a lookup by primary key.
 */
function namedRowsPostgres(keys: RawBuilder<unknown>, extra: RawBuilder<unknown> = sql``) {
  return sql`select ${CHANGE_COLUMNS},
      (select f.name from facilities f where f.id = rc.facility_id) as facility_name,
      (select f.time_zone from facilities f where f.id = rc.facility_id) as time_zone
      ${extra}
    from ${keys} cross join lateral (select * from rate_changes r where r.id = k."key" offset 0) rc`;
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

/**
 * Splits the whole UTC days [first, end) (YYYY-MM-DD) into whole UTC months (YYYY-MM), counted from
 * the per-month table, and the runs of days before and after them, counted from the per-day table;
 * no range is empty.
 */
export function splitDays(first: string, end: string) {
  const from = new Date(first);
  const monthsFrom =
    from.getUTCDate() === 1 ? from.getTime() : utcMillis(from.getUTCFullYear(), from.getUTCMonth() + 1, 1);
  const to = new Date(end);
  const monthsTo = utcMillis(to.getUTCFullYear(), to.getUTCMonth(), 1);
  if (monthsFrom >= monthsTo) return { months: null, days: [[first, end] as const] };
  const days = [[first, dayOf(monthsFrom)] as const, [dayOf(monthsTo), end] as const].filter(
    ([start, stop]) => start < stop,
  );
  return { months: [dayOf(monthsFrom).slice(0, 7), dayOf(monthsTo).slice(0, 7)] as const, days };
}

// Relative costs on SQLite, measured on 1,000,000 rows (bench/README.md): walking the ordering
// index costs 1 per entry (3 when created_by is checked); the window plan costs 1 per entry of the
// time window plus 4 per match it sorts; merging runs of days costs MERGE_COST per row taken and
// day merged, besides walking the entries it passes.
const WALK_COST = 1;
const WALK_COST_FILTERED = 3;
const SCAN_COST = 1;
const SORT_COST = 4;
const MERGE_COST = 0.1;
/** The most UTC days a window may span for the merge of runs. */
export const MAX_DAY_RUNS = 31;
/**
 * PostgreSQL: the most UTC days a window may span to be read as runs of days (dayRunsPostgres):
 * any calendar day of any time zone, 25 hours on a change of clocks included. Its generic plan
 * reads each day's entries and sorts them together; past a few days of a busy company the sort
 * outgrows what a walk along the ordering index would read, so longer windows are planned for
 * their values.
 */
export const PG_MAX_DAY_RUNS = 3;

export type PagePlan = 'ordering' | 'window' | 'days';

/**
 * The cheaper way to a page: walk the ordering index until enough matches are found (cheap when
 * matches are dense); read the time window from the window index and sort it (cheap when the
 * window holds few rows); or walk each UTC day of the window along the day index, each already in
 * the page's order, and merge them (cheap when the window spans few days, whatever their rows).
 * Only SQLite needs telling; PostgreSQL's planner weighs the same choice.
 */
export function choosePagePlan(
  counts: WindowCounts,
  wanted: number,
  filtered: boolean,
  days: number,
): PagePlan {
  if (counts.entries === 0) return 'window';
  const perEntry = filtered ? WALK_COST_FILTERED : WALK_COST;
  const walked = Math.min(counts.companyEntries, (wanted * counts.companyEntries) / counts.entries);
  const costs: Array<[PagePlan, number]> = [
    ['ordering', walked * perEntry],
    ['window', counts.windowEntries * SCAN_COST + counts.entries * SORT_COST],
  ];
  if (days <= MAX_DAY_RUNS) {
    const passed = Math.min(counts.windowEntries, (wanted * counts.windowEntries) / counts.entries);
    costs.push(['days', passed * perEntry + wanted * days * MERGE_COST]);
  }
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/**
 * The UTC days (YYYY-MM-DD) holding instants of [after, before), which must not be empty; null when
 * they are more than MAX_DAY_RUNS.
 */
export function utcDays(after: string, before: string): string[] | null {
  const first = Math.floor(Date.parse(after) / DAY_MS);
  const last = Math.floor((Date.parse(before) - 1) / DAY_MS);
  if (last - first >= MAX_DAY_RUNS) return null;
  const days: string[] = [];
  for (let day = first; day <= last; day++) days.push(dayOf(day * DAY_MS));
  return days;
}

const NO_LISTINGS = new Uint8Array(0);

/** Where a statement's value goes, by its index among the statement's values (CompiledStatements). */
type Slot = (index: number) => unknown;

/** A slot that is the value itself: the statement built for one call, not kept compiled. */
const valuesIn =
  (values: readonly unknown[]): Slot =>
  (index) =>
    values[index];

/**
 * A page's values on SQLite, in the order its statement's slots name them: the window's (see
 * inWindow), the offset, then the UTC days of a merge of day runs.
 */
const pageValues = (window: RateChangeWindow, offset: number, days: readonly string[] | null): unknown[] => [
  window.companyId,
  window.after,
  window.before,
  window.createdBy,
  offset,
  ...(days ?? []),
];
const OFFSET_SLOT = 4;
const FIRST_DAY_SLOT = 5;

/**
 * A window's count (of one creator when given) as a statement's part: `shape` names the sums it is
 * made of, `values` their values in order, and `build` the expression with each value at
 * `slot(from + its index)`. So a statement holding it is compiled once per shape.
 */
interface CountOf {
  readonly shape: string;
  readonly values: readonly unknown[];
  build(slot: Slot, from?: number): RawBuilder<number>;
}

export class SqlRateChangesRepository implements RateChangesRepository {
  private readonly postgres: boolean;
  /** SQLite's counts and listing pages, compiled once per shape (Kysely built each in 10-20 us). */
  private readonly statements: CompiledStatements;

  constructor(
    db: Db,
    private readonly arrays: ArrayRows,
    private readonly bytes: ByteRows,
  ) {
    this.postgres = isPostgres(db);
    this.statements = new CompiledStatements(db);
  }

  /**
   * One page of the window in the contract's order (facility name, tenant name, changed_at, id;
   * byte-wise) and the number of matching rows. Neither grows with the company's total rows: the
   * count reads day totals plus two partial days, the page reads about offset + limit index entries
   * or the window's own entries, whichever is fewer.
   */
  async pageInWindow(window: RateChangeWindow, offset: number, limit: number): Promise<RateChangePage> {
    return this.postgres
      ? this.readPagePostgres(window, offset, limit)
      : this.readPageSqlite(window, offset, limit);
  }

  /**
   * The page's rate changes as their listings (RateChangeUpdate.listing), joined by the database into
   * one text: no value per column and no object per row reaches JavaScript.
   */
  async listingInWindow(
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<RateChangeListingPage> {
    if (this.postgres) return this.listingPagePostgres(window, offset, limit);
    const { entries, plan, days } = await this.sqlitePagePlan(window, offset, limit);
    if (plan === null) return { totalEntries: entries, listings: NO_LISTINGS };
    // Along the ordering index and the days' runs, which carry the listing, no row of the table is
    // read. Along the window's index the CROSS JOIN keeps the keys as the outer loop, so
    // group_concat takes the rows in their order.
    const merged = plan === 'days' ? days : null;
    const shape = `listings ${plan} ${merged?.length ?? '-'} ${window.createdBy === null ? '-' : 'by'} ${limit}`;
    const joined = this.statements.statement(shape, pageValues(window, offset, merged), (slot) =>
      plan === 'ordering'
        ? sql`select cast(group_concat(p.listing, ',') as blob) as listings
            from (${this.sqliteWalk('rate_changes_order', window, sql`listing`, limit, slot)}) p`
        : merged !== null
          ? sql`select cast(group_concat(p.listing, ',') as blob) as listings
              from (${this.sqliteDays(window, merged, sql`listing`, limit, slot)}) p`
          : sql`select cast(group_concat(rc.listing, ',') as blob) as listings
              from ${this.sqliteKeys(window, plan, null, limit, slot)}
              cross join rate_changes rc on rc.rowid = k."key"`,
    );
    const [[listings]] = await this.arrays<[Uint8Array | null]>(joined);
    return { totalEntries: entries, listings: listings ?? NO_LISTINGS };
  }

  /** SQLite: the counts, then the page in one statement along the plan they choose. */
  private async readPageSqlite(
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<RateChangePage> {
    const { entries, plan, days } = await this.sqlitePagePlan(window, offset, limit);
    if (plan === null) return { totalEntries: entries, rateChanges: [] };
    return {
      totalEntries: entries,
      rateChanges: await this.sqliteRateChanges(
        this.sqliteKeys(window, plan, days, limit, valuesIn(pageValues(window, offset, days))),
      ),
    };
  }

  /**
   * SQLite: the number of matches, and the plan that reads the page from them (null when the page
   * is past the matches), with the UTC days of the window when they are few enough to merge.
   */
  private async sqlitePagePlan(
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<{ entries: number; plan: PagePlan | null; days: string[] | null }> {
    const counts = await this.countWindow(window);
    if (counts.entries <= offset) return { entries: counts.entries, plan: null, days: null };
    const wanted = Math.min(offset + limit, counts.entries);
    const days = utcDays(window.after, window.before);
    const plan = choosePagePlan(counts, wanted, window.createdBy !== null, days?.length ?? Infinity);
    return { entries: counts.entries, plan, days };
  }

  /**
   * SQLite: a FROM item `k` whose column `key` gives the page's rowids in order, read along the
   * plan's index. Each index entry carries a rowid, so a row is one B-tree search away instead of
   * two through the id index. `slot` places the page's values (pageValues).
   */
  private sqliteKeys(
    window: RateChangeWindow,
    plan: PagePlan,
    days: readonly string[] | null,
    limit: number,
    slot: Slot,
  ): RawBuilder<unknown> {
    if (plan !== 'days' || days === null) {
      const index = plan === 'ordering' ? 'rate_changes_order' : 'rate_changes_window';
      return sql`(${this.sqliteWalk(index, window, sql`rowid as "key"`, limit, slot)}) k`;
    }
    return sql`(select "key" from (${this.sqliteDays(window, days, sql`rowid as "key"`, limit, slot)})) k`;
  }

  /**
   * SQLite: `first` of the window's page read as one run per UTC day, each in the page's order
   * along rate_changes_day (which carries the listing, so neither it nor a rowid reads the table).
   * A compound select's ORDER BY over runs that each come in that order is a merge, which stops at
   * the page's end.
   */
  private sqliteDays(
    window: RateChangeWindow,
    days: readonly string[],
    first: RawBuilder<unknown>,
    limit: number,
    slot: Slot,
  ) {
    const runs = days.map((_day, i) =>
      this.sqliteEntries(
        'rate_changes_day',
        sql<SqlBool>`${this.inWindow(window, slot)} and substr(changed_at, 1, 10) = ${slot(FIRST_DAY_SLOT + i)}`,
        first,
      ),
    );
    return sql`${sql.join(runs, sql` union all `)} order by 2, 3, 4, 5
      limit ${rowLimit(limit)} offset ${slot(OFFSET_SLOT)}`;
  }

  /**
   * SQLite: `first` of the window's page along `index`. Only `first` is selected: each column more
   * is one more value read per entry (the whole history's page took 230 us with its order's four
   * columns selected, 190 without).
   */
  private sqliteWalk(
    index: string,
    window: RateChangeWindow,
    first: RawBuilder<unknown>,
    limit: number,
    slot: Slot,
  ) {
    return sql`select ${first} from rate_changes indexed by ${sql.id(index)} where ${this.inWindow(window, slot)}
      order by facility_sort, tenant_sort, changed_at, id limit ${rowLimit(limit)} offset ${slot(OFFSET_SLOT)}`;
  }

  /** SQLite: `first`, then the four columns of the page's order (2 to 5), along `index`: a run a compound select orders. */
  private sqliteEntries(index: string, where: RawBuilder<SqlBool>, first: RawBuilder<unknown>) {
    return sql`select ${first}, facility_sort, tenant_sort, changed_at, id
      from rate_changes indexed by ${sql.id(index)} where ${where}`;
  }

  /**
   * SQLite: rate changes by rowid, in the order of `keys` (a FROM item `k` with a column `key`), a
   * key without a row left out: the rows in one statement (its CROSS JOIN keeps the keys as the
   * outer loop, so their order), then the names and zones of their facilities, once each (a page
   * of 500 names one to a few).
   */
  private async sqliteRateChanges(keys: RawBuilder<unknown>): Promise<RateChange[]> {
    const rows = await this.arrays<ChangeRow>(sql`
      select ${CHANGE_COLUMNS} from ${keys} cross join rate_changes rc on rc.rowid = k."key"`);
    if (rows.length === 0) return [];
    const facilityIds = new Set<string>();
    for (const row of rows) facilityIds.add(row[1]);
    const facilities = new Map<string, [string, string]>();
    const named = await this.arrays<[string, string, string]>(sql`
      select f.id as id, f.name as name, f.time_zone as time_zone
      from json_each(${JSON.stringify([...facilityIds])}) j cross join facilities f on f.id = j.value`);
    for (const [id, name, zone] of named) facilities.set(id, [name, zone]);
    const rateChanges: RateChange[] = [];
    for (const row of rows) {
      const facility = facilities.get(row[1]);
      // A foreign key makes it always present; a row without it is left out as missing.
      if (facility !== undefined) rateChanges.push(rateChangeOf(row, facility[0], facility[1]));
    }
    return rateChanges;
  }

  /**
   * PostgreSQL: the count and the page in one statement, so one snapshot and one round trip; the
   * page is not read when the count leaves it empty.
   */
  private async readPagePostgres(
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<RateChangePage> {
    // The count is read once (a materialized CTE) and decides whether the page is read at all.
    const page = namedRowsPostgres(
      sql`(select id as "key", facility_sort, tenant_sort from rate_changes
           where ${this.inWindow(window)} and counts.entries > ${offset}
           order by facility_sort, tenant_sort, changed_at, id
           limit ${rowLimit(limit)} offset ${offset}) k`,
      sql`, k.facility_sort as facility_sort, k.tenant_sort as tenant_sort`,
    );
    // Each row is a NamedRow, the page's two sort keys, then the count (its last column); with no
    // page, the one row holds nulls and the count.
    const rows = await this.arrays<[...NamedRow, string, string, number]>(sql`
      with counts as materialized (select ${this.windowTotal(window, window.createdBy)} as entries)
      select page.*, counts.entries from counts left join lateral (${page}) page on true
      order by page.facility_sort, page.tenant_sort, page.changed_at, page.id`);
    const rateChanges: RateChange[] = [];
    for (const row of rows) if (row[0] !== null) rateChanges.push(namedRateChange(row));
    const entries = rows.length === 0 ? 0 : rows[0][rows[0].length - 1];
    return { totalEntries: Number(entries), rateChanges };
  }

  /**
   * PostgreSQL: the page's listings, each row with the count, in one statement read as bytes, then
   * joined by the store (countedListings). The statement's own ORDER BY gives the rows' order, along the ordering index, which
   * includes the listing (an index-only scan). Joined by string_agg, the page had cost PostgreSQL
   * twice the time: the aggregate sorts its input again and builds a 173 KB text.
   */
  private async listingPagePostgres(
    window: RateChangeWindow,
    offset: number,
    limit: number,
  ): Promise<RateChangeListingPage> {
    const days = utcDays(window.after, window.before);
    // An empty window (after = before) touches no day: it is read the other way.
    if (days !== null && days.length > 0 && days.length <= PG_MAX_DAY_RUNS) {
      return this.dayRunsPostgres(window, days, offset, limit);
    }
    const total = this.windowTotal(window, window.createdBy);
    const rows = sql`
      with counts as materialized (select ${total} as entries)
      select (select entries from counts)::text, listing from rate_changes
      where ${this.inWindow(window)} and (select entries from counts) > ${offset}
      order by facility_sort, tenant_sort, changed_at, id
      limit ${rowLimit(limit)} offset ${offset}`;
    const page = await countedListings(this.bytes, rows, this.arrays, sql`select ${total} as "total"`);
    return { totalEntries: page.total, listings: page.listings };
  }

  /**
   * PostgreSQL: the page of a window of a few UTC days, each day's entries read along
   * rate_changes_day (which carries the listing: an index-only scan, no row of the table read; a
   * single day comes in the page's order, so nothing is sorted). Its text depends only on the
   * number of days, the creator filter and the count's shape, so it is kept prepared on
   * a generic plan (pg-prepared.ts): parsed and planned once per connection, where a window's own
   * statement is planned on every request. That plan is safe whatever the values: each day is an
   * equality on the index. A random day of the bench's 100,000-row company went from 845-964 to
   * 2,391-2,463 req/s (docs/performance.md, "A few days' pages on PostgreSQL").
   */
  private async dayRunsPostgres(
    window: RateChangeWindow,
    days: readonly string[],
    offset: number,
    limit: number,
  ): Promise<RateChangeListingPage> {
    // The limit is a value too, so a caller's page sizes do not make shapes (each kept prepared).
    const values = [...pageValues(window, offset, days), limit];
    const count = this.countOf(window, window.createdBy);
    const shape = `pg days ${days.length} ${window.createdBy === null ? '-' : 'by'} | ${count.shape}`;
    const rows = this.statements.statement(shape, [...values, ...count.values], (slot) => {
      const runs = days.map(
        (_day, i) => sql`select listing, facility_sort, tenant_sort, changed_at, id from rate_changes
          where ${this.inWindow(window, slot)} and left(changed_at, 10) = ${slot(FIRST_DAY_SLOT + i)}`,
      );
      return sql`with counts as materialized (select ${count.build(slot, values.length)} as entries)
        select (select entries from counts)::text, listing from (${sql.join(runs, sql` union all `)}) p
        where (select entries from counts) > ${slot(OFFSET_SLOT)}
        order by facility_sort, tenant_sort, changed_at, id
        limit ${slot(values.length - 1)} offset ${slot(OFFSET_SLOT)}`;
    });
    const total = count.build(valuesIn(count.values));
    const page = await countedListings(this.bytes, rows, this.arrays, sql`select ${total} as "total"`);
    return { totalEntries: page.total, listings: page.listings };
  }

  /**
   * A slice of the window from a position (facility_sort, tenant_sort, changed_at, id): a seek
   * along rate_changes_order (company_id, then the position), then the entries up to the slice's
   * end that fall in the window, however deep the position; the count from the day and month
   * tables, as a page's.
   */
  async sliceInWindow(window: RateChangeWindow, slice: SliceRequest): Promise<Slice<RateChange>> {
    const order = [sql`facility_sort`, sql`tenant_sort`, sql`changed_at`, sql`id`];
    const keyset = keysetParts(order, slice);
    const index = this.postgres ? sql`` : sql`indexed by rate_changes_order`;
    const [keyRows, [[total]]] = await Promise.all([
      this.arrays<[string | number, string, string, string, string]>(sql`
        select ${this.postgres ? sql`id` : sql`rowid`}, facility_sort, tenant_sort, changed_at, id
        from rate_changes ${index} where ${this.inWindow(window)} and ${keyset.where}
        order by ${keyset.orderBy} limit ${rowLimit(slice.limit + 1)}`),
      this.arrays<[number]>(sql`select ${this.windowTotal(window, window.createdBy)} as entries`),
    ]);
    const { rows, more } = sliceOfRows(keyRows, slice);
    const keys = JSON.stringify(rows.map((row) => row[0]));
    const read = this.postgres
      ? (
          await this.arrays<NamedRow>(
            namedRowsPostgres(
              sql`(select value as "key" from json_array_elements_text(${keys}::json) value) k`,
            ),
          )
        ).map(namedRateChange)
      : await this.sqliteRateChanges(sql`(select value as "key" from json_each(${keys})) k`);
    const byId = new Map(read.map((change) => [change.id, change]));
    const entries: RateChange[] = [];
    const positions: Keyset[] = [];
    for (const row of rows) {
      const change = byId.get(row[4]);
      if (change === undefined) continue;
      entries.push(change);
      positions.push(row.slice(1));
    }
    return { entries, keys: positions, more, total: Number(total) };
  }

  /**
   * The window's condition; `slot` places its values, the first four of pageValues (the values
   * themselves unless told).
   */
  private inWindow(
    window: RateChangeWindow,
    slot: Slot = valuesIn(pageValues(window, 0, null)),
  ): RawBuilder<SqlBool> {
    return sql<SqlBool>`company_id = ${slot(0)}
      and changed_at >= ${slot(1)} and changed_at < ${slot(2)}
      ${window.createdBy === null ? sql`` : sql`and created_by = ${slot(3)}`}`;
  }

  /** The rows in the window (of one creator when given), as an expression of its values (countOf). */
  private windowTotal(window: RateChangeWindow, creator: number | null): RawBuilder<number> {
    const count = this.countOf(window, creator);
    return count.build(valuesIn(count.values));
  }

  /**
   * The rows in the window (of one creator when given): its whole UTC months from the per-month
   * table (per day for a creator), its other whole UTC days from the per-day tables, and the
   * partial days at its ends. Its first value is the company.
   */
  private countOf(window: RateChangeWindow, creator: number | null): CountOf {
    const values: unknown[] = [window.companyId];
    const at = (value: unknown) => values.push(value) - 1;
    const who = creator === null ? -1 : at(creator);
    const shape: string[] = [creator === null ? 'all' : 'by'];
    const sums: Array<(slot: Slot) => RawBuilder<number>> = [];
    const split = splitWindow(window.after, window.before);
    const index = this.postgres ? sql`` : sql`indexed by rate_changes_window`;
    const byCreator = (slot: Slot) => (who < 0 ? sql`` : sql`and created_by = ${slot(who)}`);
    if (split.days !== null && creator !== null) {
      const [first, end] = split.days.map(at);
      shape.push('creator-days');
      sums.push(
        (slot) => sql`(select coalesce(sum(entries), 0) from rate_change_creator_daily_counts
          where company_id = ${slot(0)} and created_by = ${slot(who)} and day >= ${slot(first)} and day < ${slot(end)})`,
      );
    } else if (split.days !== null) {
      const { months, days: runs } = splitDays(...split.days);
      for (const run of runs) {
        const [first, end] = run.map(at);
        shape.push('days');
        sums.push(
          (slot) => sql`(select coalesce(sum(entries), 0) from rate_change_daily_counts
            where company_id = ${slot(0)} and day >= ${slot(first)} and day < ${slot(end)})`,
        );
      }
      if (months !== null) {
        const [first, end] = months.map(at);
        shape.push('months');
        sums.push(
          (slot) => sql`(select coalesce(sum(entries), 0) from rate_change_monthly_counts
            where company_id = ${slot(0)} and month >= ${slot(first)} and month < ${slot(end)})`,
        );
      }
    }
    // An empty edge (a window starting or ending at midnight) is not counted, or planned.
    for (const range of [split.head, split.tail]) {
      if (range === null || Date.parse(range[0]) >= Date.parse(range[1])) continue;
      const [from, to] = range.map(at);
      shape.push('edge');
      sums.push(
        (slot) => sql`(select count(*) from rate_changes ${index}
          where company_id = ${slot(0)} and changed_at >= ${slot(from)} and changed_at < ${slot(to)}
          ${byCreator(slot)})`,
      );
    }
    return {
      shape: shape.join(' '),
      values,
      build: (slot, from = 0) => {
        if (sums.length === 0) return sql<number>`0`;
        const shifted: Slot = (i) => slot(from + i);
        return sql<number>`(${sql.join(
          sums.map((sum) => sum(shifted)),
          sql` + `,
        )})`;
      },
    };
  }

  /** SQLite's counts: the matches, and for its plan choice the window's and the company's rows. */
  private async countWindow(window: RateChangeWindow): Promise<WindowCounts> {
    const { createdBy } = window;
    // Compiled once per shape: the creator's count, then the window's of every creator.
    const entriesOf = this.countOf(window, createdBy);
    const windowOf = createdBy === null ? null : this.countOf(window, null);
    const counts = this.statements.statement(
      `counts ${entriesOf.shape} | ${windowOf?.shape ?? '-'}`,
      windowOf === null ? entriesOf.values : [...entriesOf.values, ...windowOf.values],
      (slot) => sql`
        select ${entriesOf.build(slot)} as entries,
               ${windowOf === null ? sql`0` : windowOf.build(slot, entriesOf.values.length)} as window_entries,
               (select coalesce(sum(entries), 0) from rate_change_monthly_counts
                where company_id = ${slot(0)}) as company_entries`,
    );
    const [[entries, windowEntries, companyEntries]] = await this.arrays<[number, number, number]>(counts);
    return {
      entries: Number(entries),
      windowEntries: createdBy === null ? Number(entries) : Number(windowEntries),
      companyEntries: Number(companyEntries),
    };
  }

  /** Rate changes with their names, by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(RateChange | null)[]> {
    if (ids.length === 0) return [];
    const wanted = [...new Set(ids)];
    const rateChanges = this.postgres
      ? (
          await this.arrays<NamedRow>(namedRowsPostgres(sql`(select unnest(${wanted}::text[]) as "key") k`))
        ).map(namedRateChange)
      : await this.sqliteRateChanges(
          sql`(select r.rowid as "key" from json_each(${JSON.stringify(wanted)}) j
               cross join rate_changes r on r.id = j.value) k`,
        );
    const byId = new Map(rateChanges.map((change) => [change.id, change]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}
