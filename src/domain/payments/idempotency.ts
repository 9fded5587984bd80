import { createHash } from 'node:crypto';
import { DomainError } from '../errors';

/** How long an Idempotency-Key and its first answer are kept (DESIGN 8: in the database, not memory). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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

// Card and account numbers count by length and last four digits (what a receipt shows anyway);
// a security code or a track by length only. The fingerprint never holds more of them than that.
const LAST_FOUR = new Set(['card_number', 'account_number', 'account_number_confirmation']);
const LENGTH_ONLY = new Set(['security_code', 'magnetic_track']);

function reduced(key: string, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = String(value);
  if (LAST_FOUR.has(key)) return { length: text.length, last4: text.replace(/\D/g, '').slice(-4) };
  if (LENGTH_ONLY.has(key)) return { length: text.length };
  return value;
}

/** JSON with keys sorted at every level, so key order does not make two bodies differ. */
function canonical(value: unknown, key = ''): string {
  const shown = reduced(key, value);
  if (Array.isArray(shown)) return `[${shown.map((v) => canonical(v)).join(',')}]`;
  if (shown !== null && typeof shown === 'object') {
    const entries = Object.entries(shown as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, k)}`).join(',')}}`;
  }
  return JSON.stringify(shown ?? null);
}

/** SHA-256 of what the request asks for: the operation, the facility and the body. */
export function requestFingerprint(operation: string, facilityId: string, body: unknown): string {
  return createHash('sha256')
    .update(canonical({ operation, facility_id: facilityId, body }))
    .digest('hex');
}
