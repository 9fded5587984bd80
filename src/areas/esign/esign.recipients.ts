import { DomainError, field, problem } from '../../kernel/errors';

export type Recipient = { channel: 'email'; address: string } | { channel: 'sms'; number: string };

const EMAIL_MAX_LENGTH = 254;
const LOCAL_MAX_LENGTH = 64;
const PHONE_MAX_LENGTH = 32;

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(\\.${ATOM})*$`);
const DOMAIN_LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/**
 * An address as mail systems deliver it: `local@domain`, a dot-atom local part (no quoted forms,
 * no display name, no spaces or line breaks) and a domain of at least two labels. The domain is
 * lower-cased; the local part is kept as given. Null when malformed.
 */
export function normalizeEmail(raw: string): string | null {
  const value = raw.trim();
  if (value.length > EMAIL_MAX_LENGTH) return null;
  const at = value.lastIndexOf('@');
  if (at < 1) return null;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  if (local.length > LOCAL_MAX_LENGTH || !LOCAL_PART.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return null;
  if (!TOP_LEVEL.test(labels[labels.length - 1])) return null;
  return `${local}@${domain}`;
}

// A North American number: area code and exchange do not start with 0 or 1.
const NANP = /^[2-9]\d{2}[2-9]\d{6}$/;
const PHONE_CHARACTERS = /^\+?[0-9 ().\-\u00a0]+$/;

/**
 * A phone number in E.164 form (`+15555550100`). Accepts the usual ways of writing one: spaces,
 * dots, dashes and parentheses between digits; `+` or `00` before a country code; a North American
 * number without its country code (10 digits, or 11 starting with 1). Null when malformed.
 */
export function normalizePhone(raw: string): string | null {
  const value = raw.trim();
  if (value.length > PHONE_MAX_LENGTH || !PHONE_CHARACTERS.test(value)) return null;
  if ((value.match(/\(/g) ?? []).length !== (value.match(/\)/g) ?? []).length) return null;
  const digits = value.replace(/\D/g, '');
  let international: string | null = null;
  if (value.startsWith('+')) international = digits;
  else if (digits.startsWith('00')) international = digits.slice(2);
  if (international !== null) {
    if (international.length < 8 || international.length > 15 || international.startsWith('0')) return null;
    if (international.startsWith('1')) {
      return international.length === 11 && NANP.test(international.slice(1)) ? `+${international}` : null;
    }
    return `+${international}`;
  }
  if (digits.length === 10 && NANP.test(digits)) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1') && NANP.test(digits.slice(1))) return `+${digits}`;
  return null;
}

/** Absent, null or only spaces: not given, as Rails' `present?` reads a form field. */
function notGiven(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

/**
 * Exactly one of the email address and the SMS number: both given is a conflict (400/5), neither
 * or a malformed one is invalid (400/4), naming the parameter.
 */
export function readRecipient(input: { email?: string | null; smsNumber?: string | null }): Recipient {
  const hasEmail = !notGiven(input.email);
  const hasSms = !notGiven(input.smsNumber);
  if (hasEmail && hasSms) {
    throw new DomainError(
      'conflicting_parameters',
      ['give either ', field('email'), ' or ', field('smsNumber'), ', not both'],
      {
        problems: [
          problem(['email'], ['cannot be given together with ', field('smsNumber')]),
          problem(['smsNumber'], ['cannot be given together with ', field('email')]),
        ],
      },
    );
  }
  if (!hasEmail && !hasSms) {
    throw new DomainError('invalid_parameter', [field('email'), ' or ', field('smsNumber'), ' is required'], {
      problems: [
        problem(['email'], ['is required when ', field('smsNumber'), ' is not given']),
        problem(['smsNumber'], ['is required when ', field('email'), ' is not given']),
      ],
    });
  }
  if (hasEmail) {
    const address = normalizeEmail(input.email!);
    if (!address) throw DomainError.invalidParameter(['email'], 'must be an email address');
    return { channel: 'email', address };
  }
  const number = normalizePhone(input.smsNumber!);
  if (!number) {
    throw DomainError.invalidParameter(
      ['smsNumber'],
      'must be a phone number with its country code (+15555550100) or a 10-digit North American number',
    );
  }
  return { channel: 'sms', number };
}
