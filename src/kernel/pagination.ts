import { DomainError, problem, type Problem } from './errors';

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  total_pages: number;
  per_page: number;
  total_entries: number;
  previous_page: number | null;
  next_page: number | null;
}

export interface Page<T> {
  entries: T[];
  pagination: PageMeta;
}

/** A page asked for: REST's query strings or GraphQL's integers. */
export interface PageInput {
  page?: string | number | null;
  perPage?: string | number | null;
}

const WHOLE = /^[0-9]+$/;

/** Digits past which a page number is read as too large (15: every such number is exact in a double). */
const MAX_DIGITS = 15;

/** The largest page asked for that is read; above it, `page` is refused saying so. */
const MAX_PAGE = 10 ** MAX_DIGITS - 1;

/**
 * A whole number as written (digits only, or a safe integer), Infinity for digits past MAX_DIGITS
 * (leading zeros aside), null for anything else.
 */
function parseWhole(raw: string | number): number | null {
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
  if (typeof raw !== 'string' || !WHOLE.test(raw)) return null;
  const digits = raw.replace(/^0+(?=.)/, '');
  return digits.length <= MAX_DIGITS ? Number(digits) : Infinity;
}

/**
 * Reads `page` and `per_page` as will_paginate does: page a whole number >= 1 (default 1),
 * per_page a whole number >= 1 (default given), values above the maximum read as the maximum.
 */
export function parsePageRequest(
  raw: PageInput,
  limits: { defaultPerPage: number; maxPerPage: number },
): PageRequest {
  const problems: Problem[] = [];
  let page = 1;
  if (raw.page !== undefined && raw.page !== null) {
    const value = parseWhole(raw.page);
    if (value === null || value < 1) problems.push(problem(['page'], 'must be a whole number >= 1'));
    else if (value > MAX_PAGE) problems.push(problem(['page'], `must be at most ${MAX_PAGE}`));
    else page = value;
  }
  let perPage = limits.defaultPerPage;
  if (raw.perPage !== undefined && raw.perPage !== null) {
    const value = parseWhole(raw.perPage);
    if (value === null || value < 1) {
      problems.push(problem(['perPage'], 'must be a whole number >= 1'));
    } else perPage = Math.min(value, limits.maxPerPage);
  }
  if (problems.length > 0) throw DomainError.invalid(problems);
  return { page, perPage };
}

/** The will_paginate meta for a page of a list of `total` entries. */
export function pageMeta(total: number, request: PageRequest): PageMeta {
  const totalPages = Math.max(1, Math.ceil(total / request.perPage));
  return {
    current_page: request.page,
    total_pages: totalPages,
    per_page: request.perPage,
    total_entries: total,
    previous_page: request.page > 1 ? request.page - 1 : null,
    next_page: request.page < totalPages ? request.page + 1 : null,
  };
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.perPage;
}

/** A slice asked of a list: `first` entries from `offset` (GraphQL's integers). */
export interface SliceInput {
  first?: number | null;
  offset?: number | null;
}

export interface SliceRequest {
  first: number;
  offset: number;
}

/**
 * Reads `first` as `per_page` is read (a whole number >= 1, default given, values above the
 * maximum read as the maximum) and `offset` as a whole number >= 0 (default 0).
 */
export function parseSliceRequest(
  raw: SliceInput,
  limits: { defaultFirst: number; maxFirst: number },
): SliceRequest {
  const problems: Problem[] = [];
  let first = limits.defaultFirst;
  if (raw.first !== undefined && raw.first !== null) {
    if (!Number.isSafeInteger(raw.first) || raw.first < 1) {
      problems.push(problem(['first'], 'must be a whole number >= 1'));
    } else first = Math.min(raw.first, limits.maxFirst);
  }
  let offset = 0;
  if (raw.offset !== undefined && raw.offset !== null) {
    if (!Number.isSafeInteger(raw.offset) || raw.offset < 0) {
      problems.push(problem(['offset'], 'must be a whole number >= 0'));
    } else offset = raw.offset;
  }
  if (problems.length > 0) throw DomainError.invalid(problems);
  return { first, offset };
}
