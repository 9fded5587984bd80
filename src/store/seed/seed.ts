import os from 'node:os';
import type { Store } from '../database';
import {
  importDataset,
  refreshPlannerStatistics,
  type DatasetPlan,
  type ImportCounts,
} from '../dataset/dataset.import';
import { demoDatasetParts, type DemoOptions } from './demo-data';
import { isSqliteBusy } from '../sqlite-lock-wait';

export interface SeedResult {
  counts: ImportCounts;
  records: number;
  seconds: number;
  recordsPerSecond: number;
}

/** Called after each part is loaded with the running total of records. */
export type SeedProgress = (recordsSoFar: number) => void;

/** SQLite's page cache while seeding, in KiB: an eighth of the machine's memory, 1 GiB at most. */
function seedCacheKib(): number {
  return Math.min(1024 * 1024, Math.floor(os.totalmem() / 1024 / 8));
}

/**
 * Generates the demo data and loads it part by part through `importDataset`, which checks every
 * reference (in the part or in the database) and every value rule. The JSON-schema pass is skipped:
 * it would cost a third of the time, and the test suite validates the generator's output instead.
 *
 * On SQLite the whole seed is one transaction (a failure leaves the database as it was) and takes
 * a documented fast path: the database's own foreign key enforcement is off, since importDataset
 * has already checked every reference; secondary indexes are dropped first and rebuilt at the end,
 * which sorts once instead of inserting a million random keys into each index; and the rate change
 * count triggers are suspended and their counts computed in one pass at the end. The parts join the
 * one transaction without savepoints, in a rollback journal, with a large page cache.
 */
export async function seedDemoData(
  store: Store,
  plans: readonly DatasetPlan[],
  options: DemoOptions,
  onProgress?: SeedProgress,
): Promise<SeedResult> {
  const started = process.hrtime.bigint();
  const counts: ImportCounts = {};
  let records = 0;
  const loadAll = async () => {
    for (const part of demoDatasetParts(options)) {
      const partCounts = await importDataset(store, plans, part, { shapeTrusted: true });
      for (const [table, count] of Object.entries(partCounts)) {
        counts[table] = (counts[table] ?? 0) + count;
        records += count;
      }
      onProgress?.(records);
    }
  };

  if (store.sqlite) await inSqliteFastPath(store.sqlite, loadAll);
  else await loadAll();
  await refreshPlannerStatistics(store, counts);

  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { counts, records, seconds, recordsPerSecond: Math.round(records / Math.max(seconds, 1e-3)) };
}

type SqliteHandle = NonNullable<Store['sqlite']>;

/**
 * The SQLite file is open in another process (a running server): the seed's fast path needs it
 * alone (it leaves WAL and drops the indexes for the load). Nothing was written.
 */
export class DatabaseInUseError extends Error {
  constructor() {
    super(
      'the database file is open in another process (a running facility-ops server?), and seed needs it ' +
        'to itself; nothing was written. Stop the server and run seed again, or write the data with ' +
        '`facility-ops seed --out demo.json` and load it with `facility-ops import demo.json`, which ' +
        'can run beside the server.',
    );
  }
}

/** Leaves WAL for a rollback journal, which SQLite refuses while another connection has the file. */
function leaveWal(handle: SqliteHandle): void {
  let mode: unknown;
  try {
    // Fails at once rather than after the busy timeout: another holder will not let go soon.
    const timeout = handle.pragma('busy_timeout', { simple: true });
    handle.pragma('busy_timeout = 0');
    try {
      mode = handle.pragma('journal_mode = DELETE', { simple: true });
    } finally {
      handle.pragma(`busy_timeout = ${Number(timeout)}`);
    }
  } catch (error) {
    if (isSqliteBusy(error)) throw new DatabaseInUseError();
    throw error;
  }
  if (mode !== 'delete') throw new DatabaseInUseError();
}

/**
 * Triggers the seed suspends and whose work it redoes in one pass at the end: the per-day rate
 * change counts of migration 20261121130000 (two upserts per row otherwise, most of a seed's time),
 * and the revision counters of migration 20261121150000 (replaced by one bump of the `*` scope,
 * which every cached page's revision includes).
 */
const SUSPENDED_TRIGGER = /^(rate_changes_count_|data_revision_)/;
const COUNT_TRIGGER = /^rate_changes_count_/;

async function inSqliteFastPath(handle: SqliteHandle, load: () => Promise<void>): Promise<void> {
  // None of these may change inside a transaction, so all are set before it begins and put back after.
  const saved = {
    cache_size: handle.pragma('cache_size', { simple: true }),
    foreign_keys: handle.pragma('foreign_keys', { simple: true }),
    temp_store: handle.pragma('temp_store', { simple: true }),
    journal_mode: handle.pragma('journal_mode', { simple: true }),
  };
  // A rollback journal writes new pages once; WAL would write them to the log, then again to the
  // database. SQLite refuses to leave WAL while another connection has the file open: then the
  // seed refuses too, before it writes anything.
  if (saved.journal_mode === 'wal') leaveWal(handle);
  handle.pragma(`cache_size = -${seedCacheKib()}`);
  handle.pragma('foreign_keys = OFF');
  // Index builds sort in memory rather than in temporary files.
  handle.pragma('temp_store = MEMORY');
  try {
    handle.exec('begin immediate');
    try {
      const schema = handle
        .prepare(
          "select type, name, sql from sqlite_master where type in ('index', 'trigger') and sql is not null",
        )
        .all() as Array<{ type: 'index' | 'trigger'; name: string; sql: string }>;
      const indexes = schema.filter((entry) => entry.type === 'index');
      const triggers = schema.filter(
        (entry) => entry.type === 'trigger' && SUSPENDED_TRIGGER.test(entry.name),
      );
      for (const entry of [...indexes, ...triggers])
        handle.exec(`drop ${entry.type} ${quoteName(entry.name)}`);
      await load();
      for (const entry of [...indexes, ...triggers]) handle.exec(entry.sql);
      if (triggers.some((entry) => COUNT_TRIGGER.test(entry.name))) recountRateChanges(handle);
      if (triggers.some((entry) => !COUNT_TRIGGER.test(entry.name))) bumpEveryRevision(handle);
      handle.exec('commit');
    } catch (error) {
      if (handle.inTransaction) handle.exec('rollback');
      throw error;
    }
  } finally {
    if (saved.journal_mode === 'wal') handle.pragma('journal_mode = WAL');
    handle.pragma(`temp_store = ${Number(saved.temp_store)}`);
    handle.pragma(`foreign_keys = ${saved.foreign_keys ? 'ON' : 'OFF'}`);
    handle.pragma(`cache_size = ${Number(saved.cache_size)}`);
  }
}

/** What the count triggers would have written, computed from the rows in one pass. */
function recountRateChanges(handle: SqliteHandle): void {
  handle.exec(`
    delete from rate_change_daily_counts;
    delete from rate_change_monthly_counts;
    delete from rate_change_creator_daily_counts;
    insert into rate_change_daily_counts (company_id, day, entries)
      select company_id, substr(changed_at, 1, 10), count(*) from rate_changes group by 1, 2;
    insert into rate_change_monthly_counts (company_id, month, entries)
      select company_id, substr(day, 1, 7), sum(entries) from rate_change_daily_counts group by 1, 2;
    insert into rate_change_creator_daily_counts (company_id, created_by, day, entries)
      select company_id, created_by, substr(changed_at, 1, 10), count(*) from rate_changes
      where created_by is not null group by 1, 2, 3;
  `);
}

/** Makes every page cached by any instance stale: their revision tokens all include `*`. */
function bumpEveryRevision(handle: SqliteHandle): void {
  handle.exec(`
    insert into data_revisions (scope, revision) values ('*', 1)
    on conflict (scope) do update set revision = revision + 1;
  `);
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
