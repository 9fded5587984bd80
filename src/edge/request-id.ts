import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it is 1-128 characters of [A-Za-z0-9._-], otherwise a new UUID. */
export function requestIdFrom(given: unknown): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
