/**
 * Card and bank data that never leaves the service (DESIGN 4 and 9): wherever a parameter of one
 * of these names appears (an echo, a logged URL, an error message), its value is replaced.
 */
export const SENSITIVE_NAMES: ReadonlySet<string> = new Set([
  'card_number',
  'security_code',
  'magnetic_track',
  'account_number',
  'account_number_confirmation',
]);

export const FILTERED = '[FILTERED]';

/** Whether a parameter name, in snake_case (REST) or camelCase (GraphQL), is a sensitive one. */
export function isSensitiveName(name: string): boolean {
  if (SENSITIVE_NAMES.has(name)) return true;
  const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return snake !== name && SENSITIVE_NAMES.has(snake);
}

/** The innermost name of a Rails-style nested key: `payment_method[card_number]` -> `card_number`. */
export function leafName(key: string): string {
  const inner = /\[([^[\]]*)\]$/.exec(key);
  return inner ? inner[1] : key;
}

/** Query parameters that carry credentials (OAuth 1.0 values, tokens). */
const CREDENTIAL = /^(?:oauth_[a-z_]+|access_token|token)$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Paths whose next segment is a credential: a signing link's token (`/sign/<token>`, `/s/<token>`;
 * the page's own assets under `/sign/assets/` are not one).
 */
const TOKEN_PATH = /^(\/+(?:sign|s)\/+)(?!assets\/)[^/?#]+/i;

/** Stands in a logged path where a signing link's token was. */
export const TOKEN_PLACEHOLDER = '[token]';

/**
 * A URL safe to log: a signing link's token in the path and the value of every sensitive or
 * credential query parameter are replaced, nested (`payment_method[card_number]`) or
 * percent-encoded names included.
 */
export function redactRequestUrl(rawUrl: string): string {
  const url = TOKEN_PATH.test(rawUrl) ? rawUrl.replace(TOKEN_PATH, `$1${TOKEN_PLACEHOLDER}`) : rawUrl;
  const index = url.indexOf('?');
  if (index < 0) return url;
  const pairs = url
    .slice(index + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = leafName(decoded(pair.slice(0, equals)));
      return isSensitiveName(name) || CREDENTIAL.test(name) ? `${pair.slice(0, equals)}=${FILTERED}` : pair;
    });
  return `${url.slice(0, index)}?${pairs.join('&')}`;
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
