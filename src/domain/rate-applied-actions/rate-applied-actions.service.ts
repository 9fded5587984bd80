import type { Clock } from '../../clock';
import type {
  RateAppliedActionRow,
  RateAppliedActionsRepository,
} from '../../store/repositories/rate-applied-actions.repository';
import { DomainError, type ParameterProblem } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../shared/ids';
import { centsToAmount } from '../shared/money';
import { isValidDate, localDate } from '../shared/time';
import type {
  RateAppliedAction,
  RateAppliedActionsQuery,
  RateAppliedActionsResult,
} from './rate-applied-actions.types';

export function rateAppliedActionRowToRateAppliedAction(row: RateAppliedActionRow): RateAppliedAction {
  return {
    id: row.id,
    facilityId: row.facility_id,
    appliedRate: { name: row.applied_rate_name, amount: centsToAmount(row.applied_rate_cents) },
    standardRate: centsToAmount(row.standard_rate_cents),
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

/** Reads a date parameter: absent means the default, anything else must be a real YYYY-MM-DD date. */
function readDate(
  name: string,
  raw: unknown,
  fallback: string,
  problems: ParameterProblem[],
): { value: string; defaulted: boolean } {
  if (raw === undefined || raw === null) return { value: fallback, defaulted: true };
  if (typeof raw !== 'string') {
    problems.push({ parameter: name, message: 'must be a date in YYYY-MM-DD form' });
  } else if (!isValidDate(raw)) {
    problems.push({ parameter: name, message: 'must be a real date in YYYY-MM-DD form' });
  }
  return { value: typeof raw === 'string' ? raw : fallback, defaulted: false };
}

export class RateAppliedActionsService {
  constructor(
    private readonly repository: RateAppliedActionsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The facility's actions completed in an inclusive date range; either bound defaults to today
   * at the facility. Sorted by time_completed, then id.
   */
  async list(facility: Facility, query: RateAppliedActionsQuery): Promise<RateAppliedActionsResult> {
    const today = localDate(this.clock.now(), facility.timeZone);
    const problems: ParameterProblem[] = [];
    const start = readDate('start_date', query.start_date, today, problems);
    const end = readDate('end_date', query.end_date, today, problems);
    if (problems.length === 0 && start.value > end.value) {
      problems.push({ parameter: 'start_date', message: `must not be after end_date (${end.value})` });
    }
    if (problems.length > 0) throw DomainError.invalid(problems);
    const rows = await this.repository.listCompletedBetween(facility.id, start.value, end.value);
    return {
      startDate: start.value,
      endDate: end.value,
      defaulted: { startDate: start.defaulted, endDate: end.defaulted },
      actions: rows.map(rateAppliedActionRowToRateAppliedAction),
    };
  }

  /** Actions by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async rateAppliedActionsByIds(ids: readonly string[]): Promise<(RateAppliedAction | null)[]> {
    const keys = ids.map((id) => (isUuid(id) ? normalizeId(id) : ''));
    const rows = await this.repository.findByIds(keys.filter((key) => key !== ''));
    const byId = new Map<string, RateAppliedAction>();
    for (const row of rows) if (row) byId.set(row.id, rateAppliedActionRowToRateAppliedAction(row));
    return keys.map((key) => byId.get(key) ?? null);
  }
}
