import { DomainError, problem, type Problem } from './errors';

/**
 * Cursor connections (Relay's connection specification) beside the page lists: a slice of a list
 * walked from a position rather than an offset. A position is the list's order values followed by
 * the id (the tie-breaker), so a walk reads the list's index from where it stopped, however deep,
 * and rows added meanwhile neither repeat an item nor push one out of reach.
 */

/** The most items a slice answers (`first` or `last`). */
export const MAX_SLICE = 100;

/** A position in a list: its order values, then the id. */
export type Keyset = readonly (string | number)[];

/** A slice asked for: forward (`first` after a position) or backward (`last` before one). */
export interface SliceRequest {
  direction: 'forward' | 'backward';
  /** How many items, 1 to MAX_SLICE (0 answers none but the counts). */
  limit: number;
  /** The position to start past (exclusive), or null from the list's end of that direction. */
  from: Keyset | null;
  /** The position to stop before (exclusive), the other argument of the pair, or null. */
  to: Keyset | null;
}

/** A slice read: its items in list order, each with its position, and whether more lie beyond. */
export interface Slice<T> {
  entries: readonly T[];
  keys: readonly Keyset[];
  /** More items in the walk's direction past the last read. */
  more: boolean;
  /** Every item of the list (the filters applied, no position). */
  total: number;
}

/** The arguments of a connection field. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** What a cursor is bound to: the list (by its field's name) and the parent whose list it is. */
export interface CursorScope {
  list: string;
  /** The facility's or company's id whose list it walks. */
  owner: string;
}

const CURSOR_VERSION = 1;

/** An opaque cursor: the list, its owner and the position, as base64url JSON. */
export function encodeCursor(scope: CursorScope, key: Keyset): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, scope.list, scope.owner, ...key])).toString('base64url');
}

/**
 * The position a cursor names, or null when it is not a cursor of this list and owner (another
 * list's, another facility's or company's, malformed). `arity` is the number of values a position
 * of the list holds.
 */
export function decodeCursor(cursor: string, scope: CursorScope, arity: number): Keyset | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 + arity) return null;
  const [version, list, owner, ...key] = parsed as unknown[];
  if (version !== CURSOR_VERSION || list !== scope.list || owner !== scope.owner) return null;
  const valid = key.every(
    (value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)),
  );
  return valid ? (key as Keyset) : null;
}

const COUNT_MESSAGE = `must be a whole number from 0 to ${MAX_SLICE}`;

/**
 * Reads a connection's arguments into a slice: `first` (and `after`) walks forward, `last` (and
 * `before`) backward; neither given walks forward `defaultFirst`. `first` and `last` together, a
 * count below 0 or above MAX_SLICE, and a cursor of another list or owner are refused, each problem
 * naming its argument (BAD_USER_INPUT).
 */
export function parseSlice(
  args: ConnectionArgs,
  scope: CursorScope,
  arity: number,
  defaultFirst: number = MAX_SLICE,
): SliceRequest {
  const problems: Problem[] = [];
  const given = (value: number | string | null | undefined) => value !== undefined && value !== null;
  const count = (name: 'first' | 'last', value: number | null | undefined) => {
    if (!given(value)) return null;
    if (!Number.isSafeInteger(value) || value! < 0 || value! > MAX_SLICE) {
      problems.push(problem([name], COUNT_MESSAGE));
      return null;
    }
    return value!;
  };
  const position = (name: 'after' | 'before', value: string | null | undefined) => {
    if (!given(value)) return null;
    const key = decodeCursor(value!, scope, arity);
    if (key === null) problems.push(problem([name], `is not a cursor of this ${scope.list} list`));
    return key;
  };
  if (given(args.first) && given(args.last)) {
    problems.push(problem(['last'], 'must not be given with first'));
  }
  const first = count('first', args.first);
  const last = count('last', args.last);
  const after = position('after', args.after);
  const before = position('before', args.before);
  if (problems.length > 0) throw DomainError.invalid(problems);
  if (given(args.last)) return { direction: 'backward', limit: last!, from: before, to: after };
  return { direction: 'forward', limit: first ?? defaultFirst, from: after, to: before };
}

/** Compares two positions value by value (the store's byte-wise order of text). */
export function compareKeys(a: Keyset, b: Keyset): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    return Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));
  }
  return 0;
}

/**
 * A slice of a list already read whole, in its order (which `keyOf`'s positions follow, compared
 * as compareKeys does): the same slice the store's keyset query answers.
 */
export function sliceOfLoaded<T>(
  all: readonly T[],
  keyOf: (item: T) => Keyset,
  slice: SliceRequest,
): Slice<T> {
  const keys = all.map(keyOf);
  // [start, end) of the items strictly between the two bounds.
  const lower = slice.direction === 'forward' ? slice.from : slice.to;
  const upper = slice.direction === 'forward' ? slice.to : slice.from;
  let start = 0;
  while (lower !== null && start < keys.length && compareKeys(keys[start], lower) <= 0) start++;
  let end = start;
  while (end < keys.length && (upper === null || compareKeys(keys[end], upper) < 0)) end++;
  const count = end - start;
  const [from, to] =
    slice.direction === 'forward'
      ? [start, start + Math.min(slice.limit, count)]
      : [end - Math.min(slice.limit, count), end];
  return {
    entries: all.slice(from, to),
    keys: keys.slice(from, to),
    more: count > slice.limit,
    total: all.length,
  };
}
