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
