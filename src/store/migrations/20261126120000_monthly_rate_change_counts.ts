import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import {
  createPostgresTriggers,
  createSqliteTriggers,
  dropCountTriggers,
} from './20261121130000_rate_change_counts';

/**
 * Rate changes counted per company and UTC month (`YYYY-MM`) as well as per day, kept by the same
 * triggers, so a window's count sums its whole months and only the days at its ends: a company's
 * two years are 24 rows instead of 731 (SQLite 125 us, PostgreSQL 0.5 ms, for the count of a whole
 * history). The per-creator counts stay per day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  // On PostgreSQL the key carries the count, so a sum of months is an index-only scan.
  await sql`create table rate_change_monthly_counts (
      company_id text not null,
      month text not null,
      entries integer not null,
      constraint rate_change_monthly_counts_pk primary key (company_id, month)
        ${pg ? sql`include (entries)` : sql``}
    ) ${pg ? sql`` : sql`without rowid`}`.execute(db);
  await dropCountTriggers(db);
  if (pg) await createPostgresTriggers(db, { monthly: true });
  else await createSqliteTriggers(db, { monthly: true });
  await sql`
    insert into rate_change_monthly_counts (company_id, month, entries)
    select company_id, substr(day, 1, 7), sum(entries) from rate_change_daily_counts group by 1, 2
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db);
  if (isPostgres(db)) await createPostgresTriggers(db, { monthly: false });
  else await createSqliteTriggers(db, { monthly: false });
  await sql`drop table rate_change_monthly_counts`.execute(db);
}
