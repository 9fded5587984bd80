import { NUL_MESSAGE } from '../kernel/errors';

/**
 * Limits on the structure of what a request carries, checked at the edge before authentication and
 * before any handler, so no handler meets (or half-writes) a request it cannot finish answering.
 */

/** Levels of objects and arrays a body, a query string or GraphQL variables may nest (the body itself is 1). */
export const MAX_NESTING = 32;

export const NESTING_MESSAGE = `is nested deeper than ${MAX_NESTING} levels`;

export interface ShapeProblem {
  /** Where the problem is, as REST names parameters: `note.note_text`, `items[0].id`; empty for the whole value. */
  path: Array<string | number>;
  message: string;
}

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string | number | null;
}

function pathOf(node: Node | null): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at = node; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Whether `value` is nothing, or an object whose values are all strings without NUL under keys
 * without NUL (most path and query parameters): nothing to walk.
 */
function flatAndClean(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner !== 'string' || inner.includes('\u0000') || key.includes('\u0000')) return false;
  }
  return true;
}

/**
 * The first problem in a parsed value: nesting deeper than MAX_NESTING, or a NUL character in a
 * string or a key (PostgreSQL refuses NUL in text, SQLite keeps it: both answer alike this way).
 * Walks without recursion, so no input can exhaust the stack.
 */
export function findShapeProblem(value: unknown): ShapeProblem | null {
  if (flatAndClean(value)) return null;
  const stack: Node[] = [{ value, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return { path: pathOf(node), message: NUL_MESSAGE };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (node.depth > MAX_NESTING) return { path: [], message: NESTING_MESSAGE };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], depth: node.depth + 1, parent: node, key: i });
      }
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const child: Node = {
        value: (current as Record<string, unknown>)[key],
        depth: node.depth + 1,
        parent: node,
        key,
      };
      if (key.includes('\u0000')) return { path: pathOf(child), message: NUL_MESSAGE };
      stack.push(child);
    }
  }
  return null;
}

/** A path as REST names a parameter: `payment_method.card_number`, `retail_payment.invoiceable_items[0].quantity`. */
export function parameterName(path: Array<string | number>, whole: string): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name === '' ? part : `.${part}`;
  }
  return name === '' ? whole : name;
}

export { NUL_MESSAGE };
