import type { Db } from '../database';
import type { RateAppliedActionsTable } from '../schema';

export type RateAppliedActionRow = RateAppliedActionsTable;

export class RateAppliedActionsRepository {
  constructor(private readonly db: Db) {}

  /** The facility's actions completed on a date in [startDate, endDate], by time_completed then id. */
  async listCompletedBetween(
    facilityId: string,
    startDate: string,
    endDate: string,
  ): Promise<RateAppliedActionRow[]> {
    const rows = await this.db
      .selectFrom('rate_applied_actions')
      .selectAll()
      .where('facility_id', '=', facilityId)
      .where('completed_on', '>=', startDate)
      .where('completed_on', '<=', endDate)
      .orderBy('time_completed')
      .orderBy('id')
      .execute();
    // Re-sorted by code point so the order never depends on a PostgreSQL collation.
    return rows.sort(byTimeCompletedThenId);
  }

  /** Actions by id, in key order, null for a missing id. */
  async findByIds(ids: readonly string[]): Promise<(RateAppliedActionRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('rate_applied_actions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}

function byTimeCompletedThenId(a: RateAppliedActionRow, b: RateAppliedActionRow): number {
  if (a.time_completed !== b.time_completed) return a.time_completed < b.time_completed ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
