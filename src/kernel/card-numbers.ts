/**
 * Card numbers recognised by their value, whatever name they came under (a note's text, an unknown
 * parameter, a path segment): runs of 13 to 19 digits that pass the Luhn check, spaces, dashes and
 * invisible characters allowed between the digits. Each is masked to its last four digits, as a
 * receipt shows a card: `************1111`.
 */

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/** What stands for the digits of a masked number before its last four. */
const MASK = '*'.repeat(12);

/** A number as a receipt shows it: twelve asterisks and its last four digits. */
function masked(digits: string): string {
  return `${MASK}${digits.slice(-4)}`;
}

/** Spaces, dashes and invisible characters (zero-width, soft hyphen) a caller may put between digits. */
const SEPARATOR = '[\\s\\x00-\\x1F\\x7F\\u00AD\\u2010-\\u2015\\u2212\\u200B-\\u200D\\u2060\\uFEFF-]';
const WORD = '[\\p{L}\\p{N}_]';

/**
 * Digit groups joined by separators, standing apart from letters and from a dash glued to them, so
 * an id such as a UUID is never one, nor the fraction of a decimal number.
 */
const DIGIT_GROUPS = new RegExp(
  `(?<!${WORD}|${WORD}-|\\d\\.)\\d+(?:${SEPARATOR}{1,3}\\d+)*(?!${WORD}|-${WORD}|\\.\\d)`,
  'gu',
);

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordCode(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Whether a character may stand between a number's digits: a quick, wide test (non-ASCII counted
 * in; `+` and `%` for a space or a zero-width character percent-encoded in a URL).
 */
function mayBeSeparator(code: number): boolean {
  return code <= 32 || code === 45 || code === 43 || code === 37 || code >= 0x80;
}

/**
 * Whether `text` may hold a card number: some 13 digits in a row, separators aside, not glued to a
 * word before them (a JSON escape such as `\n` counts as a separator). One pass without allocation,
 * so text without long digit runs (nearly all of it) pays for nothing else.
 */
export function mayHoldCardNumber(text: string, from = 0): boolean {
  if (text.length - from < MIN_DIGITS) return false;
  let digits = 0;
  let gap = 0;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      // A run glued to a word stays uncounted: each of its digits follows a digit or a dash.
      if (digits === 0 && gluedAt(text, i)) continue;
      if (++digits >= MIN_DIGITS) return true;
      gap = 0;
    } else if (digits > 0 && (mayBeSeparator(code) || code === 92 || text.charCodeAt(i - 1) === 92)) {
      if (++gap > 6) digits = gap = 0;
      // A percent-encoded byte (`%20`, `%E2%80%8B`) is one separator.
      if (code === 37) i += 2;
    } else {
      digits = gap = 0;
    }
  }
  return false;
}

/** Whether the digit at `index` follows a word character, a word and a dash, or a digit and a point. */
function gluedAt(text: string, index: number): boolean {
  if (index > 2 && text.charCodeAt(index - 3) === 37) return false;
  const before = index > 0 ? text.charCodeAt(index - 1) : 32;
  // A dash after a word (an id's part), a point after a digit (a decimal fraction).
  if (before === 45) return index > 1 && isWordCode(text.charCodeAt(index - 2));
  if (before === 46) return index > 1 && isDigit(text.charCodeAt(index - 2));
  // `\n` before the digits is a newline escaped in JSON, not a word.
  return isWordCode(before) && text.charCodeAt(index - 2) !== 92;
}

/**
 * Digit groups with each run of whole groups that is a card number masked: the longest run from
 * each group on that has 13 to 19 digits and passes Luhn (`20 4111 1111 1111 1111` keeps its `20`).
 */
function maskGroups(sequence: string): string {
  const groups = [...sequence.matchAll(/\d+/g)];
  let out = '';
  let copied = 0;
  for (let first = 0; first < groups.length; first++) {
    let digits = '';
    let last = -1;
    let lastDigits = '';
    for (let next = first; next < groups.length; next++) {
      digits += groups[next][0];
      if (digits.length > MAX_DIGITS) break;
      if (digits.length >= MIN_DIGITS && passesLuhn(digits)) {
        last = next;
        lastDigits = digits;
      }
    }
    if (last < 0) continue;
    const start = groups[first].index;
    out += sequence.slice(copied, start) + masked(lastDigits);
    copied = groups[last].index + groups[last][0].length;
    first = last;
  }
  return copied === 0 ? sequence : out + sequence.slice(copied);
}

/**
 * A UUID written in decimal digits alone (8-4-4-4-12, single dashes): an id, as the contract's
 * facility, tenant and ledger ids are, never a card number, though its digits run past 13 and
 * their groups may pass Luhn (`11111111-1111-4111-8111-111111111111`). The parameter echo shows
 * path ids as sent.
 */
const DIGIT_UUID = /(?<!\d)(\d{8}-\d{4}-\d{4}-\d{4}-\d{12})(?!\d)/;

/** Digit groups with their card numbers masked, a UUID of digits among them left as it is. */
function maskSequence(sequence: string): string {
  if (!DIGIT_UUID.test(sequence)) return maskGroups(sequence);
  // split with a capturing group: the UUIDs stand at the odd places.
  return sequence
    .split(DIGIT_UUID)
    .map((part, index) => (index % 2 === 1 ? part : maskGroups(part)))
    .join('');
}

/** `text` with every card number in it masked to its last four digits. */
export function maskCardNumbers(text: string): string {
  if (!mayHoldCardNumber(text)) return text;
  return text.replace(DIGIT_GROUPS, maskSequence);
}

/**
 * An integer that is a card number, as its masked text; other numbers as they are. One of 16 to 19
 * digits past 2^53 has lost its last digits in parsing, so no Luhn check can judge it: masked too.
 */
export function maskCardNumber(value: number): number | string {
  if (!Number.isInteger(value) || value < 10 ** (MIN_DIGITS - 1) || value >= 10 ** MAX_DIGITS) return value;
  const digits = String(value);
  return !Number.isSafeInteger(value) || passesLuhn(digits) ? masked(digits) : value;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A parsed JSON value (a log line) with every card number in its strings, keys and integers masked,
 * except under the keys of `kept` at its top level; the value itself when it holds none.
 */
export function maskCardNumbersIn(value: unknown, kept: ReadonlySet<string> = NONE): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number') return maskCardNumber(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => maskCardNumbersIn(item));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const shownKey = maskCardNumbers(key);
    const shown = kept.has(key) ? inner : maskCardNumbersIn(inner);
    if (shownKey !== key || shown !== inner) changed = true;
    out[shownKey] = shown;
  }
  return changed ? out : value;
}
