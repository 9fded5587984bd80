import type { Clock } from '../../kernel/clock';
import { DomainError, field, problem, type Path, type Problem } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { storedKeys } from '../../kernel/ids';
import { isValidDate, localDate } from '../../kernel/time';
import type { RateAppliedActionsRepository } from './rate-applied-actions.ports';
import type {
  RateAppliedActionsQuery,
  RateAppliedActionsResult,
  RateAppliedAction,
} from './rate-applied-actions.types';

/** Reads a date parameter: absent means the default, anything else must be a real YYYY-MM-DD date. */
function readDate(
  path: Path,
  raw: string | null | undefined,
  fallback: string,
  problems: Problem[],
): { value: string; defaulted: boolean } {
  if (raw === undefined || raw === null) return { value: fallback, defaulted: true };
  if (!isValidDate(raw)) problems.push(problem(path, 'must be a real date in YYYY-MM-DD form'));
  return { value: raw, defaulted: false };
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
    const range = this.range(facility, query);
    const actions = await this.repository.listCompletedBetween(facility.id, range.startDate, range.endDate);
    return { ...range, actions };
  }

  /**
   * The range a query asks for, checked, with today at the facility for a missing bound; what the
   * list's answer depends on besides the actions themselves.
   */
  range(facility: Facility, query: RateAppliedActionsQuery): Omit<RateAppliedActionsResult, 'actions'> {
    const today = localDate(this.clock.now(), facility.timeZone);
    const problems: Problem[] = [];
    const start = readDate(['startDate'], query.startDate, today, problems);
    const end = readDate(['endDate'], query.endDate, today, problems);
    if (problems.length === 0 && start.value > end.value) {
      problems.push(problem(['startDate'], ['must not be after ', field('endDate'), ` (${end.value})`]));
    }
    if (problems.length > 0) throw DomainError.invalid(problems);
    return {
      startDate: start.value,
      endDate: end.value,
      defaulted: { startDate: start.defaulted, endDate: end.defaulted },
    };
  }

  /** The facility's actions completed in a range `range` checked. */
  between(facility: Facility, startDate: string, endDate: string): Promise<RateAppliedAction[]> {
    return this.repository.listCompletedBetween(facility.id, startDate, endDate);
  }

  /** Actions by id, in key order, null for a missing or malformed id (DataLoader batch shape). */
  async rateAppliedActionsByIds(ids: readonly string[]): Promise<(RateAppliedAction | null)[]> {
    const keys = storedKeys(ids);
    const found = await this.repository.findByIds(keys.filter((key) => key !== ''));
    const byId = new Map<string, RateAppliedAction>();
    for (const action of found) if (action) byId.set(action.id, action);
    return keys.map((key) => byId.get(key) ?? null);
  }
}
