import { mayHoldCardNumber, maskCardNumbers } from './card-numbers';

/**
 * How a sensitive value may still count where a request must be recognised again (the
 * Idempotency-Key fingerprint): a card or account `number` by its length and last four digits, as a
 * receipt shows it; a `track` by the length and last four digits of the card number it holds; a
 * `secret` (a security code) not at all.
 */
export type SensitiveKind = 'number' | 'track' | 'secret';

/**
 * Card and bank data that never leaves the service (DESIGN 4, 9 and 12), the one list that drives
 * log redaction, the parameter echo and the Idempotency-Key fingerprint.
 */
const SENSITIVE: ReadonlyMap<string, SensitiveKind> = new Map([
  ['card_number', 'number'],
  ['security_code', 'secret'],
  ['magnetic_track', 'track'],
  ['account_number', 'number'],
  ['account_number_confirmation', 'number'],
]);

/** The sensitive names in snake_case, as the REST contract spells them. */
export const SENSITIVE_NAMES: ReadonlySet<string> = new Set(SENSITIVE.keys());

export const FILTERED = '[FILTERED]';

/**
 * A name with only its letters and digits kept, in lower case: `card_number`, `cardNumber` and
 * `Card-Number` alike, and so are the spellings a parameter parser reads as the same name or a
 * caller adds to slip past a filter: a NUL or another control character (`card_number%00`), a
 * zero-width character (`card_number%E2%80%8B`), what an overlong UTF-8 form decodes to
 * (`card_number%C0%80`), punctuation (`card_number;`), compatibility forms (full-width letters).
 */
function compact(name: string): string {
  const folded = /[\u0080-\uffff]/.test(name) ? name.normalize('NFKC') : name;
  return folded.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const KIND_BY_COMPACT: ReadonlyMap<string, SensitiveKind> = new Map(
  [...SENSITIVE].map(([name, kind]) => [compact(name), kind]),
);

/**
 * The kind of a sensitive parameter name in any spelling (snake_case, camelCase, any case, with
 * dashes, with characters a parser drops; see `compact`); null for a name that is not one.
 */
export function sensitiveKind(name: string): SensitiveKind | null {
  return KIND_BY_COMPACT.get(compact(name)) ?? null;
}

/** Whether a parameter name, in snake_case (REST), camelCase (GraphQL) or any case, is a sensitive one. */
export function isSensitiveName(name: string): boolean {
  return sensitiveKind(name) !== null;
}

/**
 * Every name a Rails-style nested key is made of: `payment_method[card_number][]` ->
 * `payment_method`, `card_number`, `` (dots split too, as some clients nest with them).
 */
export function keySegments(key: string): string[] {
  return key.split(/[[\].]+/);
}

/** Verdicts on keys seen lately: the echo asks about every parameter of every request. */
const KEY_VERDICTS = new Map<string, boolean>();
const KEPT_VERDICTS = 1024;

/** Whether any segment of a (possibly nested) parameter key is a sensitive name. */
export function isSensitiveKey(key: string): boolean {
  let verdict = KEY_VERDICTS.get(key);
  if (verdict === undefined) {
    verdict = keySegments(key).some(isSensitiveName);
    // Keys are the caller's to choose: the memory they take stays bounded.
    if (KEY_VERDICTS.size >= KEPT_VERDICTS) KEY_VERDICTS.clear();
    KEY_VERDICTS.set(key, verdict);
  }
  return verdict;
}

/** The spellings a log line's field may use for each sensitive name: snake_case and camelCase. */
export function sensitiveFieldSpellings(): string[] {
  return [...SENSITIVE_NAMES].flatMap((name) => [
    name,
    name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
  ]);
}

/** Query parameters that carry credentials (OAuth 1.0 values, tokens). */
const CREDENTIAL = /^(?:oauth_[a-z_]+|access_token|token)$/i;

function decoded(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Malformed elsewhere (`%ZZ`, a split UTF-8 sequence): each well-formed escape still counts.
    return spaced.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  }
}

/** Whether a value names a sensitive field itself (GraphQL variables or a query in a query string). */
function mentionsSensitiveName(value: string): boolean {
  for (const [word] of value.matchAll(/[A-Za-z][A-Za-z0-9_-]*/g)) if (isSensitiveName(word)) return true;
  return false;
}

/**
 * Paths whose next segment is a credential: a signing link's token (`/sign/<token>`, `/s/<token>`;
 * the page's own assets under `/sign/assets/` are not one).
 */
const TOKEN_PATH = /^(\/+(?:sign|s)\/+)(?!assets\/)[^/?#]+/i;

/** Stands in a logged path where a signing link's token was. */
export const TOKEN_PLACEHOLDER = '[token]';

/**
 * A part of a URL (a path segment, a query name or value) with every card number in it masked, read
 * as a parser decodes it (`4111%201111...`, `4111+1111...`); the part as it is when it holds none.
 */
function maskEncodedCardNumbers(part: string, encode: (text: string) => string): string {
  if (!mayHoldCardNumber(part)) return part;
  const text = decoded(part);
  const masked = maskCardNumbers(text);
  return masked === text ? part : encode(masked);
}

const encodeName = (name: string) => encodeURIComponent(name).replace(/%5B/gi, '[').replace(/%5D/gi, ']');

/**
 * A URL safe to log: a signing link's token in the path and the value of every sensitive or
 * credential query parameter are replaced, whichever segment of a nested name is the sensitive
 * one (`payment_method[card_number][]`, `card_number[0]`), percent-encoded names included, and
 * every value that itself names a sensitive field (`variables={"cardNumber":...}` on /graphql).
 * A card number anywhere else, in the path or under any name, is masked to its last four digits.
 */
export function redactRequestUrl(rawUrl: string): string {
  const url = TOKEN_PATH.test(rawUrl) ? rawUrl.replace(TOKEN_PATH, `$1${TOKEN_PLACEHOLDER}`) : rawUrl;
  const index = url.indexOf('?');
  const path = maskUrlPath(index < 0 ? url : url.slice(0, index));
  if (index < 0) return path;
  const pairs = url
    .slice(index + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return maskEncodedCardNumbers(pair, encodeName);
      const name = pair.slice(0, equals);
      const segments = keySegments(decoded(name));
      const hidden =
        segments.some((segment) => isSensitiveName(segment) || CREDENTIAL.test(segment)) ||
        mentionsSensitiveName(decoded(pair.slice(equals + 1)));
      const shownName = maskEncodedCardNumbers(name, encodeName);
      const value = hidden ? FILTERED : maskEncodedCardNumbers(pair.slice(equals + 1), encodeURIComponent);
      return `${shownName}=${value}`;
    });
  return `${path}?${pairs.join('&')}`;
}

/** A URL's path with every card number in its segments masked to its last four digits. */
export function maskUrlPath(path: string): string {
  if (!mayHoldCardNumber(path)) return path;
  return path
    .split('/')
    .map((segment) => maskEncodedCardNumbers(segment, encodeURIComponent))
    .join('/');
}

/**
 * Digit runs as long as a card or bank account number (12 to 19 digits, spaces or dashes allowed
 * between them): masked in text a caller's values may have reached, whatever name they came under.
 */
// Standing alone: not a part of an id such as a UUID.
const LONG_NUMBER = /(?<![\w-])\d(?:[ -]?\d){11,18}(?![\w-])/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces each of `values` where the text shows it (a string quoted as JSON writes it, or bare when
 * it is long enough not to be mistaken; a number as a whole word), and every long digit run.
 */
export function redactValues(text: string, values: Iterable<string | number>): string {
  let out = text;
  for (const value of values) {
    if (typeof value === 'string') {
      if (value.length === 0) continue;
      out = out.split(JSON.stringify(value)).join(`"${FILTERED}"`);
      if (value.length >= 6) out = out.split(value).join(FILTERED);
    } else {
      out = out.replace(new RegExp(`(?<![\\w.])${escapeRegExp(String(value))}(?![\\w.])`, 'g'), FILTERED);
    }
  }
  return out.replace(LONG_NUMBER, FILTERED);
}

/** The leaf values held under sensitive names anywhere in `value` (GraphQL variables, a body). */
export function sensitiveValues(value: unknown): Array<string | number> {
  const found: Array<string | number> = [];
  const stack: Array<{ value: unknown; under: boolean }> = [{ value, under: false }];
  while (stack.length > 0) {
    const { value: current, under } = stack.pop()!;
    if (typeof current === 'string' || typeof current === 'number') {
      if (under) found.push(current);
    } else if (Array.isArray(current)) {
      for (const inner of current) stack.push({ value: inner, under });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        stack.push({ value: inner, under: under || isSensitiveName(key) });
      }
    }
  }
  return found;
}
