import type { RateAppliedActionsRepository } from './rate-applied-actions.ports';
import type { RateAppliedAction } from './rate-applied-actions.types';
import { rateAppliedActions } from './rate-applied-actions.tables';
import type { Db } from '../../store/database';
import { rowCodec } from '../../store/rows';

const rateAppliedActionCodec = rowCodec(rateAppliedActions);

export class SqlRateAppliedActionsRepository implements RateAppliedActionsRepository {
  constructor(private readonly db: Db) {}

  async listCompletedBetween(
    facilityId: string,
    startDate: string,
    endDate: string,
  ): Promise<RateAppliedAction[]> {
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
    return rows.sort(byTimeCompletedThenId).map(rateAppliedActionCodec.read);
  }

  async findByIds(ids: readonly string[]): Promise<(RateAppliedAction | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('rate_applied_actions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, rateAppliedActionCodec.read(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}

function byTimeCompletedThenId(
  a: { time_completed: string; id: string },
  b: { time_completed: string; id: string },
): number {
  if (a.time_completed !== b.time_completed) return a.time_completed < b.time_completed ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
