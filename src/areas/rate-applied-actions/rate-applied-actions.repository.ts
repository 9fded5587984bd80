import type { RateAppliedActionsRepository } from './rate-applied-actions.ports';
import type { RateAppliedAction } from './rate-applied-actions.types';
import { centsToAmount } from '../../kernel/money';
import type { Db } from '../../store/database';
import type { RateAppliedActionsTable } from '../../store/schema';

export type RateAppliedActionRow = RateAppliedActionsTable;

export function rateAppliedActionRowToRateAppliedAction(row: RateAppliedActionRow): RateAppliedAction {
  return {
    id: row.id,
    facilityId: row.facility_id,
    rateInfo: {
      appliedRate: { name: row.applied_rate_name, amount: centsToAmount(row.applied_rate_cents) },
      standardRate: centsToAmount(row.standard_rate_cents),
    },
    source: row.source,
    completedOn: row.completed_on,
    completedBy: row.completed_by,
    employeeId: row.employee_id,
    userId: row.user_id,
    timeCompleted: row.time_completed,
    event: row.event,
    oldLedgerId: row.old_ledger_id,
    newLedgerId: row.new_ledger_id,
    unitId: row.unit_id,
    leadId: row.lead_id,
  };
}

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
    return rows.sort(byTimeCompletedThenId).map(rateAppliedActionRowToRateAppliedAction);
  }

  async findByIds(ids: readonly string[]): Promise<(RateAppliedAction | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('rate_applied_actions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, rateAppliedActionRowToRateAppliedAction(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}

function byTimeCompletedThenId(a: RateAppliedActionRow, b: RateAppliedActionRow): number {
  if (a.time_completed !== b.time_completed) return a.time_completed < b.time_completed ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
