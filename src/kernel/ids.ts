import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Ids are stored lower-case, so a caller's upper-case spelling finds the same record. */
export function normalizeId(value: string): string {
  return value.toLowerCase();
}

export function newId(): string {
  return randomUUID();
}

/** Ids as stored (lower-case), for a batch look-up; a malformed id becomes a key that matches nothing. */
export function storedKeys(ids: readonly string[]): string[] {
  return ids.map((id) => (isUuid(id) ? normalizeId(id) : ''));
}

/** Blank (absent, null or empty) counts as not given, as Rails' `present?` reads form fields. */
export function isBlank(value: unknown): value is '' | null | undefined {
  return value === undefined || value === null || value === '';
}
