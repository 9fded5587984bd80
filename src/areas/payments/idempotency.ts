import { createHash } from 'node:crypto';
import { readIdempotencyKey } from '../../kernel/idempotency-key';
import { sensitiveKind } from '../../kernel/sensitive';
import { parseTracks } from './cards';

/** How long an Idempotency-Key and its first answer are kept (DESIGN 8: in the database, not memory). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export { readIdempotencyKey };

/** A card or account number as a receipt shows it: how long it is and its last four digits. */
function asOnReceipt(number: string): { length: number; last4: string } {
  const digits = number.replace(/\D/g, '');
  return { length: digits.length, last4: digits.slice(-4) };
}

/** Stands in the fingerprint for a sensitive field given as something else than text or a number. */
const NOT_TEXT = 'not text';

/**
 * What a field counts for in the fingerprint. Sensitive fields (the one list of
 * `domain/shared/sensitive`, in either spelling: the command is camelCase) count as a receipt shows
 * them: a card or account number by length and last four digits, a swipe by the card number its
 * tracks hold, likewise; a security code not at all (undefined: left out), so a retry that differs
 * only there is the same request. Nothing else of them reaches the hash.
 */
function reduced(key: string, value: unknown): unknown {
  const kind = sensitiveKind(key);
  if (kind === null || value === undefined) return value;
  if (kind === 'secret') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') return value === null ? null : NOT_TEXT;
  const text = String(value);
  if (kind === 'number') return asOnReceipt(text);
  const tracks = parseTracks(text);
  return typeof tracks === 'string' ? { tracks } : { card: asOnReceipt(tracks.pan) };
}

/** JSON with keys sorted at every level, so key order does not make two bodies differ. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, reduced(k, v)] as const)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Marks the fingerprints made this way. A stored one without it was made before (migration
 * 20261127120000_idempotency_fingerprint_v2 cleared those): it cannot be compared, and the
 * request it names is replayed rather than charged again.
 */
export const FINGERPRINT_VERSION = 'v2:';

/** Whether a stored fingerprint can be compared with one made now. */
export function isComparableFingerprint(stored: string): boolean {
  return stored.startsWith(FINGERPRINT_VERSION);
}

/** SHA-256 of what the request asks for: the operation, the facility and the body. */
export function requestFingerprint(operation: string, facilityId: string, body: unknown): string {
  const hash = createHash('sha256')
    .update(canonical({ operation, facility_id: facilityId, body }))
    .digest('hex');
  return `${FINGERPRINT_VERSION}${hash}`;
}
