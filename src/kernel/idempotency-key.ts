import { DomainError } from './errors';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** The caller's key: 1-255 visible ASCII characters; undefined when none was sent. */
export function readIdempotencyKey(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY.test(raw)) {
    throw DomainError.invalidParameter(
      ['idempotencyKey'],
      'must be one value of 1 to 255 visible ASCII characters (a UUID is a good choice)',
    );
  }
  return raw;
}
