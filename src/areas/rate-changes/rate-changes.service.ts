import type { Clock } from '../../kernel/clock';
import { DomainError, field, problem, type Path, type Problem } from '../../kernel/errors';
import type { Company } from '../facilities/facilities.types';
import { normalizeId } from '../../kernel/ids';
import { offsetOf, pageMeta, parsePageRequest, type PageMeta } from '../../kernel/pagination';
import { parseOffsetDateTime } from '../../kernel/time';
import type { RateChangesRepository } from './rate-changes.ports';
import { parseSlice, type ConnectionArgs, type Slice, type SliceRequest } from '../../kernel/connections';
import type {
  RateChange,
  RateChangeUpdatesQuery,
  RateChangeUpdatesRequest,
  RateChangeUpdatesResult,
} from './rate-changes.types';

export const DEFAULT_PER_PAGE = 500;
export const MAX_PER_PAGE = 2000;

/** The list a cursor of rate change updates names. */
export const RATE_CHANGE_CURSOR_LIST = 'Company.rateChangeUpdates';

/** The range created_by is stored in (a 32-bit integer on PostgreSQL). */
const CREATED_BY_MIN = -2147483648;
const CREATED_BY_MAX = 2147483647;

// An unencoded `+` in a query string arrives as a space; only the offset's sign can stand there.
const SPACED_OFFSET = /^(.*\d) (\d{2}:?\d{2})$/;
const SUB_MILLISECOND = /\.\d{3}(\d*)/;

/**
 * Reads a window bound: ISO 8601 with a UTC offset, to the stored UTC form. A fraction finer than
 * the stored milliseconds rounds up, which keeps `<=` and `<` against stored instants exact.
 */
function readInstant(path: Path, raw: string | null | undefined, problems: Problem[]): string | null {
  if (raw === undefined || raw === null) {
    problems.push(problem(path, 'is required'));
    return null;
  }
  const expected = 'must be an ISO 8601 date-time with a UTC offset, e.g. 2026-03-01T09:30:00-05:00';
  const value = raw.replace(SPACED_OFFSET, '$1+$2');
  let stored = parseOffsetDateTime(value);
  if (stored !== null && /[1-9]/.test(SUB_MILLISECOND.exec(value)?.[1] ?? '')) {
    stored = new Date(Date.parse(stored) + 1).toISOString();
  }
  if (stored === null) {
    problems.push(problem(path, expected));
    return null;
  }
  // Four-digit UTC years only: stored instants compare as text.
  if (!/^\d{4}-/.test(stored)) {
    problems.push(problem(path, 'must fall within the years 0000 to 9999 once in UTC'));
    return null;
  }
  return stored;
}

function readCreatedBy(raw: string | number | null | undefined, problems: Problem[]): number | null {
  if (raw === undefined || raw === null) return null;
  const text = String(raw);
  if (!/^-?\d{1,15}$/.test(text)) {
    problems.push(problem(['createdBy'], 'must be an integer'));
    return null;
  }
  const value = Number(text);
  if (value < CREATED_BY_MIN || value > CREATED_BY_MAX) {
    problems.push(problem(['createdBy'], `must be an integer from ${CREATED_BY_MIN} to ${CREATED_BY_MAX}`));
    return null;
  }
  return value;
}

/** Company-wide rate changes in a time window (contract 4.12). */
export class RateChangesService {
  constructor(
    private readonly repository: RateChangesRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The company's rate changes with updated_after <= changed_at < updated_before, maybe of one
   * creator, a page at a time, sorted by facility name, tenant name (both case-insensitive,
   * byte-wise), changed_at, then id.
   */
  async updates(company: Company, query: RateChangeUpdatesQuery): Promise<RateChangeUpdatesResult> {
    const request = this.readQuery(company, query);
    const page = await this.page(request);
    return { ...page, filters: request.filters, defaults: request.defaults };
  }

  /**
   * A slice of the same list walked by cursor: the window and creator checked as for a page (every
   * bad argument named at once), the cursor holding facility name, tenant name, changed_at and id,
   * bound to the list and the company.
   */
  async updatesConnection(
    company: Company,
    query: Omit<RateChangeUpdatesQuery, 'page' | 'perPage'>,
    args: ConnectionArgs,
  ): Promise<Slice<RateChange>> {
    const problems: Problem[] = [];
    const attempt = <T>(read: () => T): T | null => {
      try {
        return read();
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        problems.push(...error.problems);
        return null;
      }
    };
    const request = attempt(() =>
      this.readQuery(company, {
        updatedAfter: query.updatedAfter,
        updatedBefore: query.updatedBefore,
        createdBy: query.createdBy,
      }),
    );
    const owner = normalizeId(company.id);
    const slice: SliceRequest | null = attempt(() =>
      parseSlice(args, { list: RATE_CHANGE_CURSOR_LIST, owner }, 4),
    );
    if (request === null || slice === null) throw DomainError.invalid(problems);
    return this.repository.sliceInWindow(request.window, slice);
  }

  /**
   * Checks the query and reads it into the window and page it asks for (400/4 naming every bad
   * parameter). Equal requests read alike, so `request.key` names the page they get.
   */
  readQuery(company: Company, query: RateChangeUpdatesQuery): RateChangeUpdatesRequest {
    const problems: Problem[] = [];
    const after = readInstant(['updatedAfter'], query.updatedAfter, problems);
    const before = readInstant(['updatedBefore'], query.updatedBefore, problems);
    const createdBy = readCreatedBy(query.createdBy, problems);
    let page = { page: 1, perPage: DEFAULT_PER_PAGE };
    try {
      page = parsePageRequest(query, { defaultPerPage: DEFAULT_PER_PAGE, maxPerPage: MAX_PER_PAGE });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(...error.problems);
    }
    if (after !== null && before !== null && after > before) {
      problems.push(problem(['updatedAfter'], ['must not be later than ', field('updatedBefore')]));
    }
    if (problems.length > 0 || after === null || before === null) throw DomainError.invalid(problems);

    const window = { companyId: normalizeId(company.id), after, before, createdBy };
    const defaults: RateChangeUpdatesResult['defaults'] = {};
    if (query.page === undefined || query.page === null) defaults.page = page.page;
    if (query.perPage === undefined || query.perPage === null) defaults.per_page = page.perPage;
    return {
      window,
      page,
      key: [window.companyId, after, before, createdBy ?? '', page.page, page.perPage].join(' '),
      filters: createdBy === null ? {} : { created_by: createdBy },
      defaults,
    };
  }

  /** The page a checked request asks for, with its pagination. */
  async page(
    request: RateChangeUpdatesRequest,
  ): Promise<Pick<RateChangeUpdatesResult, 'rateChanges' | 'pagination'>> {
    const result = await this.repository.pageInWindow(
      request.window,
      offsetOf(request.page),
      request.page.perPage,
    );
    return { rateChanges: result.rateChanges, pagination: pageMeta(result.totalEntries, request.page) };
  }

  /**
   * The page a checked request asks for, each rate change as the contract lists it
   * (RateChangeUpdate.listing, src/contract), joined by commas: the members of the JSON array REST answers.
   */
  async listingPage(
    request: RateChangeUpdatesRequest,
  ): Promise<{ listings: Uint8Array; pagination: PageMeta }> {
    const result = await this.repository.listingInWindow(
      request.window,
      offsetOf(request.page),
      request.page.perPage,
    );
    return { listings: result.listings, pagination: pageMeta(result.totalEntries, request.page) };
  }

  /** Rate changes by id, in key order, null for a missing one (DataLoader batch shape). */
  rateChangesByIds(ids: readonly string[]): Promise<(RateChange | null)[]> {
    return this.repository.findByIds(ids);
  }
}
