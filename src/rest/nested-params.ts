/*
 * Kept rather than `qs` (measured by `npm run bench:kept-copies`, bench/kept-copies.js): `qs` reads
 * Rails' array of hashes `items[][id]=a&items[][quantity]=1&items[][id]=b&items[][quantity]=2` as
 * one hash of arrays (`{"items":[{"id":["a","b"],"quantity":["1","2"]}]}`), which is not what the
 * legacy SDKs mean by it, and past its depth it keeps the rest of a name as a literal key where the
 * contract refuses the parameter. The same answers from `qs` would take this much code around it.
 */
/**
 * Rails-style nested parameters, as legacy clients send them in query strings and form bodies:
 * `note[note_text]=x`, `ids[]=1&ids[]=2`, `items[][id]=a&items[][quantity]=1&items[][id]=b`.
 */
export type ParamValue = string | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

const MAX_DEPTH = 8;
const MAX_PAIRS = 1000;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export class NestedParamsError extends Error {}

function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first <= 0) return [key];
  const parts = [key.slice(0, first)];
  const rest = key.slice(first);
  const segment = /\[([^\]]*)\]/g;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = segment.exec(rest)) !== null) {
    if (match.index !== consumed) break;
    parts.push(match[1]);
    consumed = match.index + match[0].length;
  }
  // Anything after the last well-formed bracket belongs to the last name, as Rails reads it.
  if (consumed !== rest.length) return [key];
  return parts;
}

function isHash(value: ParamValue | undefined): value is { [key: string]: ParamValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assign(target: { [key: string]: ParamValue }, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (FORBIDDEN_KEYS.has(head)) throw new NestedParamsError(`parameter name "${head}" is not allowed`);
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const [next, ...after] = rest;
  if (next === '') {
    let list = target[head];
    if (!Array.isArray(list)) target[head] = list = [];
    if (after.length === 0) {
      list.push(value);
      return;
    }
    // items[][id]=a&items[][qty]=1: a key already set in the last hash starts a new hash.
    let last = list[list.length - 1];
    if (!isHash(last) || hasPath(last, after)) {
      last = {};
      list.push(last);
    }
    assign(last, after, value);
    return;
  }
  let child = target[head];
  if (!isHash(child)) target[head] = child = {};
  assign(child, rest, value);
}

function hasPath(hash: { [key: string]: ParamValue }, path: string[]): boolean {
  const value = hash[path[0]];
  if (value === undefined) return false;
  if (path.length === 1 || path[1] === '') return true;
  return isHash(value) && hasPath(value, path.slice(1));
}

/** Builds the nested parameter object from decoded name/value pairs. */
export function nestParams(pairs: Iterable<[string, string]>): Params {
  const result: { [key: string]: ParamValue } = {};
  let count = 0;
  for (const [key, value] of pairs) {
    if (++count > MAX_PAIRS) throw new NestedParamsError(`more than ${MAX_PAIRS} parameters`);
    if (key === '') continue;
    const path = splitKey(key);
    if (path.length > MAX_DEPTH)
      throw new NestedParamsError(`parameter "${key.slice(0, 80)}" is nested too deeply`);
    assign(result, path, value);
  }
  return result;
}

/** Decodes an application/x-www-form-urlencoded string into pairs. */
export function formPairs(encoded: string): Array<[string, string]> {
  return [...new URLSearchParams(encoded)];
}
