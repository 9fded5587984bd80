import { DomainError, problem, type Path, type Problem, type Text } from '../../kernel/errors';
import { isBlank, isUuid, normalizeId } from '../../kernel/ids';
import {
  CARD_TYPES,
  cardBrandOf,
  CARD_TYPE_NAMES,
  isExpired,
  isTooFarAhead,
  isValidRoutingNumber,
  parseCardType,
  parseExpiry,
  parseTracks,
  passesLuhn,
  securityCodeLength,
  MAX_EXPIRY_YEARS_AHEAD,
  type CardType,
  type Expiry,
} from './cards';
import type {
  BillingAddress,
  BillingAddressCommand,
  MethodDetails,
  NewMethodInput,
  PayRetailCommand,
  PaymentKind,
  PaymentMethodCommand,
  RetailLineCommand,
  RetailLineInput,
  SavedMethodInput,
  ValidRetailPayment,
} from './payments.types';

/** Whole quantity of one line (DESIGN 6, Retail payment). */
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 1000;
/** Lines one payment may hold. */
export const MAX_LINES = 100;
/** Largest amount a tender field may carry, in cents. */
export const MAX_AMOUNT_CENTS = 999_999_999;

/** `paymentMethod.kind` spellings, the contract's and the legacy ones without underscores. */
const KIND_ALIASES: Record<string, PaymentKind> = {
  credit_card: 'credit_card',
  creditcard: 'credit_card',
  card_swipe: 'card_swipe',
  cardswipe: 'card_swipe',
  ach: 'ach',
  check: 'check',
  cash: 'cash',
  money_order: 'money_order',
  moneyorder: 'money_order',
};

export const ACCOUNT_TYPES = ['checking', 'savings'] as const;

const BILLING_ADDRESS_FIELDS: Record<keyof BillingAddressCommand, number> = {
  company: 255,
  address1: 255,
  address2: 255,
  city: 255,
  state: 100,
  postal: 20,
};

/** Longest raw digit field accepted: the digits plus the spaces and dashes people type. */
const DIGITS_MAX_LENGTH = 40;

/** "a Visa card", "an American Express card". */
export function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

interface StringRule {
  required?: boolean;
  max: number;
  /** Checked after trimming. */
  pattern?: RegExp;
  patternMessage?: string;
}

/** Reads the fields of one object of the command, collecting problems under its path. */
class Fields<T extends object> {
  constructor(
    readonly record: T,
    private readonly at: Path,
    private readonly problems: Problem[],
  ) {}

  path(key: keyof T & string): Path {
    return [...this.at, key];
  }

  problem(key: keyof T & string, message: Text | string): void {
    this.problems.push(problem(this.path(key), message));
  }

  given(key: keyof T & string): boolean {
    return !isBlank(this.record[key]);
  }

  /** A trimmed string; undefined when blank (a problem when required) or malformed. */
  string(key: keyof T & string, rule: StringRule): string | undefined {
    const raw = this.record[key] as unknown;
    if (isBlank(raw)) {
      if (rule.required) this.problem(key, 'is required');
      return undefined;
    }
    if (typeof raw !== 'string') {
      this.problem(key, 'must be a string');
      return undefined;
    }
    if (raw.length > rule.max) {
      this.problem(key, `must be at most ${rule.max} characters`);
      return undefined;
    }
    const value = raw.trim();
    if (value === '') {
      if (rule.required) this.problem(key, 'must not be blank');
      return undefined;
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      this.problem(key, rule.patternMessage ?? 'is malformed');
      return undefined;
    }
    return value;
  }

  /** Digits only, once spaces and dashes are removed (as people type card and account numbers). */
  digits(
    key: keyof T & string,
    rule: { required?: boolean; min: number; max: number; what: string },
  ): string | undefined {
    const value = this.string(key, { required: rule.required, max: DIGITS_MAX_LENGTH });
    if (value === undefined) return undefined;
    const digits = value.replace(/[\s-]/g, '');
    if (!/^\d+$/.test(digits)) {
      this.problem(key, `must be ${rule.what} of digits only`);
      return undefined;
    }
    if (digits.length < rule.min || digits.length > rule.max) {
      const size = rule.min === rule.max ? `${rule.min}` : `${rule.min} to ${rule.max}`;
      this.problem(key, `must be ${rule.what} of ${size} digits`);
      return undefined;
    }
    return digits;
  }

  /** An amount of money (number or decimal string, at most two decimals) in cents. */
  amount(key: keyof T & string, rule: { required: boolean; positive: boolean }): number | undefined {
    const raw = this.record[key] as unknown;
    if (isBlank(raw)) {
      if (rule.required) this.problem(key, 'is required');
      return undefined;
    }
    let cents: number | null = null;
    if (typeof raw === 'number') {
      if (Number.isFinite(raw) && raw >= 0) {
        const scaled = Math.round(raw * 100);
        cents = Math.abs(scaled - raw * 100) < 1e-6 ? scaled : null;
      } else if (raw < 0) {
        this.problem(key, 'must not be negative');
        return undefined;
      }
    } else if (typeof raw === 'string') {
      const value = raw.trim();
      if (value.length <= 16 && /^-/.test(value)) {
        this.problem(key, 'must not be negative');
        return undefined;
      }
      const match = value.length <= 16 ? /^(\d+)(?:\.(\d{1,2}))?$/.exec(value) : null;
      if (match) cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
    } else {
      this.problem(key, 'must be an amount (a number or a decimal string)');
      return undefined;
    }
    if (cents === null) {
      this.problem(key, 'must be an amount with at most two decimals, such as 12.50');
      return undefined;
    }
    if (cents > MAX_AMOUNT_CENTS) {
      this.problem(key, `must be at most ${MAX_AMOUNT_CENTS / 100}`);
      return undefined;
    }
    if (rule.positive && cents === 0) {
      this.problem(key, 'must be more than 0');
      return undefined;
    }
    return cents;
  }
}

function readQuantity(path: Path, raw: unknown, problems: Problem[]): number | undefined {
  if (isBlank(raw)) {
    problems.push(problem(path, 'is required'));
    return undefined;
  }
  let value: number | null = null;
  if (typeof raw === 'number') value = Number.isInteger(raw) ? raw : null;
  else if (typeof raw === 'string') {
    const text = raw.trim();
    if (/^-?\d{1,15}$/.test(text)) value = Number(text);
  } else {
    problems.push(problem(path, 'must be a whole number (a number or a string of digits)'));
    return undefined;
  }
  if (value === null || value < QUANTITY_MIN || value > QUANTITY_MAX) {
    problems.push(problem(path, `must be a whole number from ${QUANTITY_MIN} to ${QUANTITY_MAX}`));
    return undefined;
  }
  return value;
}

function readLines(
  raw: readonly RetailLineCommand[] | null | undefined,
  problems: Problem[],
): RetailLineInput[] {
  const at: Path = ['invoiceableItems'];
  if (isBlank(raw)) {
    problems.push(problem(at, 'is required: name at least one retail item'));
    return [];
  }
  if (raw.length === 0) {
    problems.push(problem(at, 'must name at least one retail item'));
    return [];
  }
  if (raw.length > MAX_LINES) {
    problems.push(problem(at, `must have at most ${MAX_LINES} entries`));
    return [];
  }
  const lines: RetailLineInput[] = [];
  const seen = new Map<string, number>();
  raw.forEach((entry, index) => {
    const idPath: Path = [...at, index, 'invoiceableItemId'];
    const rawId = entry.invoiceableItemId;
    let itemId: string | undefined;
    if (isBlank(rawId)) problems.push(problem(idPath, 'is required'));
    else if (!isUuid(rawId.trim())) problems.push(problem(idPath, 'must be a UUID'));
    else itemId = normalizeId(rawId.trim());
    const quantity = readQuantity([...at, index, 'quantity'], entry.quantity, problems);
    if (itemId !== undefined) {
      const earlier = seen.get(itemId);
      if (earlier !== undefined) {
        problems.push(
          problem(idPath, ['repeats the item of ', [...at, earlier], '; give its whole quantity once']),
        );
        return;
      }
      seen.set(itemId, index);
    }
    if (itemId !== undefined && quantity !== undefined) lines.push({ index, itemId, quantity });
  });
  return lines;
}

function readTenantId(raw: string | null | undefined, problems: Problem[]): string | null {
  if (isBlank(raw)) return null;
  if (isUuid(raw.trim())) return normalizeId(raw.trim());
  problems.push(problem(['tenantId'], 'must be a UUID'));
  return null;
}

function readReuseable(fields: Fields<PaymentMethodCommand>): boolean {
  const raw = fields.record.reuseable;
  if (isBlank(raw)) return false;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  fields.problem('reuseable', 'must be true or false');
  return false;
}

function readBillingAddress(
  fields: Fields<PaymentMethodCommand>,
  problems: Problem[],
): BillingAddress | null {
  const raw = fields.record.billingAddress;
  const postal = fields.string('billingPostal', { max: BILLING_ADDRESS_FIELDS.postal });
  if (raw === undefined || raw === null) {
    fields.problem(
      'billingAddress',
      'is required for a new payment method (an object; its fields may be empty)',
    );
    return null;
  }
  const address = new Fields(raw, fields.path('billingAddress'), problems);
  const result: BillingAddress = {};
  for (const [name, max] of Object.entries(BILLING_ADDRESS_FIELDS) as Array<
    [keyof BillingAddressCommand, number]
  >) {
    result[name] = address.string(name, { max }) ?? null;
  }
  // billing_postal is the short form some callers send beside (or instead of) the address.
  if (result.postal === null && postal !== undefined) result.postal = postal;
  return Object.values(result).some((value) => value !== null) ? result : null;
}

function readExpiry(fields: Fields<PaymentMethodCommand>, today: string): Expiry | undefined {
  const value = fields.string('expirationDate', {
    required: true,
    max: 10,
    pattern: /^(0[1-9]|1[0-2])\/\d{2}$/,
    patternMessage: 'must be MM/YY',
  });
  if (value === undefined) return undefined;
  const expiry = parseExpiry(value) as Expiry;
  return checkExpiry(fields, 'expirationDate', expiry, today);
}

function checkExpiry(
  fields: Fields<PaymentMethodCommand>,
  key: 'expirationDate' | 'magneticTrack',
  expiry: Expiry,
  today: string,
): Expiry | undefined {
  if (isExpired(expiry, today)) {
    fields.problem(key, 'is in the past: the card has expired');
    return undefined;
  }
  if (isTooFarAhead(expiry, today)) {
    fields.problem(key, `is more than ${MAX_EXPIRY_YEARS_AHEAD} years ahead`);
    return undefined;
  }
  return expiry;
}

/** The brand of a Luhn-valid number, checked against card_type when one is given. */
function checkCardNumber(
  fields: Fields<PaymentMethodCommand>,
  key: 'cardNumber' | 'magneticTrack',
  pan: string,
  cardType: CardType | undefined,
): CardType | undefined {
  if (!passesLuhn(pan)) {
    fields.problem(key, 'is not a valid card number (its check digit is wrong)');
    return undefined;
  }
  const brand = cardBrandOf(pan);
  if (brand === null) {
    fields.problem(key, `is not a card of an accepted brand (${CARD_TYPES.join(', ')})`);
    return undefined;
  }
  if (cardType !== undefined && cardType !== brand) {
    fields.problem(
      'cardType',
      `is ${cardType}, but the card number is ${withArticle(CARD_TYPE_NAMES[brand])} card (${brand})`,
    );
    return undefined;
  }
  return brand;
}

function readCardType(fields: Fields<PaymentMethodCommand>, required: boolean): CardType | undefined {
  const value = fields.string('cardType', { required, max: 40 });
  if (value === undefined) return undefined;
  const type = parseCardType(value);
  if (type === null) fields.problem('cardType', `must be one of ${CARD_TYPES.join(', ')}`);
  return type ?? undefined;
}

function readCreditCard(fields: Fields<PaymentMethodCommand>, today: string): MethodDetails | undefined {
  const pan = fields.digits('cardNumber', { required: true, min: 12, max: 19, what: 'a card number' });
  const cardType = readCardType(fields, true);
  const securityCode = fields.string('securityCode', {
    required: true,
    max: 10,
    pattern: /^\d{3,4}$/,
    patternMessage: 'must be 3 or 4 digits',
  });
  const expiry = readExpiry(fields, today);
  if (pan === undefined || cardType === undefined) return undefined;
  const brand = checkCardNumber(fields, 'cardNumber', pan, cardType);
  if (brand === undefined) return undefined;
  if (securityCode !== undefined && securityCode.length !== securityCodeLength(brand)) {
    fields.problem(
      'securityCode',
      `must be ${securityCodeLength(brand)} digits for ${withArticle(CARD_TYPE_NAMES[brand])} card`,
    );
    return undefined;
  }
  if (securityCode === undefined || expiry === undefined) return undefined;
  return { kind: 'credit_card', pan, brand, securityCode, expiry };
}

function readCardSwipe(fields: Fields<PaymentMethodCommand>, today: string): MethodDetails | undefined {
  const track = fields.string('magneticTrack', { required: true, max: 300 });
  const cardType = readCardType(fields, false);
  if (track === undefined) return undefined;
  const read = parseTracks(track);
  if (read === 'unreadable') {
    fields.problem('magneticTrack', 'is not readable track 1 (%B...^...^...?) or track 2 (;...=...?) data');
    return undefined;
  }
  if (read === 'tracks_disagree') {
    fields.problem('magneticTrack', 'has a track 1 and a track 2 that name different cards or expiries');
    return undefined;
  }
  if (read === 'bad_expiry') {
    fields.problem('magneticTrack', 'holds an expiry month that does not exist');
    return undefined;
  }
  const brand = checkCardNumber(fields, 'magneticTrack', read.pan, cardType);
  const expiry = checkExpiry(fields, 'magneticTrack', read.expiry, today);
  if (brand === undefined || expiry === undefined) return undefined;
  return { kind: 'card_swipe', pan: read.pan, brand, expiry, track };
}

function readAch(fields: Fields<PaymentMethodCommand>): MethodDetails | undefined {
  const accountNumber = fields.digits('accountNumber', {
    required: true,
    min: 4,
    max: 17,
    what: 'an account number',
  });
  const confirmation = fields.digits('accountNumberConfirmation', {
    required: true,
    min: 4,
    max: 17,
    what: 'an account number',
  });
  const accountType = fields.string('accountType', { required: true, max: 20 });
  const bankName = fields.string('bankName', { required: true, max: 100 });
  const routingNumber = fields.digits('routingNumber', {
    required: true,
    min: 9,
    max: 9,
    what: 'a routing number',
  });
  let valid = true;
  if (accountNumber !== undefined && confirmation !== undefined && accountNumber !== confirmation) {
    fields.problem('accountNumberConfirmation', ['does not match ', fields.path('accountNumber')]);
    valid = false;
  }
  const type = accountType?.toLowerCase();
  if (type !== undefined && !(ACCOUNT_TYPES as readonly string[]).includes(type)) {
    fields.problem('accountType', `must be one of ${ACCOUNT_TYPES.join(', ')}`);
    valid = false;
  }
  if (routingNumber !== undefined && !isValidRoutingNumber(routingNumber)) {
    fields.problem('routingNumber', 'is not a valid ABA routing number (its checksum is wrong)');
    valid = false;
  }
  if (!valid || !accountNumber || !type || !bankName || !routingNumber) return undefined;
  return { kind: 'ach', routingNumber, accountNumber, accountType: type, bankName };
}

function readCheck(fields: Fields<PaymentMethodCommand>): MethodDetails | undefined {
  const checkNumber = fields.string('checkNumber', {
    required: true,
    max: 20,
    pattern: /^\d{1,15}$/,
    patternMessage: 'must be 1 to 15 digits',
  });
  const nameOnCheck = fields.string('nameOnCheck', { required: true, max: 100 });
  const amountCents = fields.amount('checkAmount', { required: true, positive: true });
  if (checkNumber === undefined || nameOnCheck === undefined || amountCents === undefined) return undefined;
  return { kind: 'check', checkNumber, nameOnCheck, amountCents };
}

function readMoneyOrder(fields: Fields<PaymentMethodCommand>): MethodDetails | undefined {
  const referenceNumber = fields.string('referenceNumber', {
    required: true,
    max: 50,
    pattern: /^[A-Za-z0-9-]{1,50}$/,
    patternMessage: 'must be letters, digits and dashes',
  });
  const amountCents = fields.amount('moneyOrderAmount', { required: true, positive: true });
  if (referenceNumber === undefined || amountCents === undefined) return undefined;
  return { kind: 'money_order', referenceNumber, amountCents };
}

function readCash(fields: Fields<PaymentMethodCommand>): MethodDetails | undefined {
  const tenderedCents = fields.amount('amountTendered', { required: true, positive: false });
  return tenderedCents === undefined ? undefined : { kind: 'cash', tenderedCents };
}

function readKind(fields: Fields<PaymentMethodCommand>): PaymentKind | undefined {
  const value = fields.string('kind', { required: true, max: 40 });
  if (value === undefined) return undefined;
  const kind = KIND_ALIASES[value.toLowerCase()];
  if (!kind) {
    fields.problem('kind', 'must be one of credit_card, card_swipe, ach, check, cash, money_order');
  }
  return kind;
}

function readMethod(
  raw: PaymentMethodCommand,
  today: string,
  problems: Problem[],
): NewMethodInput | SavedMethodInput | undefined {
  const fields = new Fields(raw, ['paymentMethod'], problems);
  if (fields.given('paymentMethodId')) {
    const id = fields.string('paymentMethodId', {
      max: 64,
      pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      patternMessage: 'must be a UUID',
    });
    return id === undefined ? undefined : { saved: true, id: normalizeId(id) };
  }
  const firstName = fields.string('firstName', { required: true, max: 100 });
  const lastName = fields.string('lastName', { required: true, max: 100 });
  const kind = readKind(fields);
  const reuseable = readReuseable(fields);
  const billingAddress = readBillingAddress(fields, problems);
  let details: MethodDetails | undefined;
  switch (kind) {
    case 'credit_card':
      details = readCreditCard(fields, today);
      break;
    case 'card_swipe':
      details = readCardSwipe(fields, today);
      break;
    case 'ach':
      details = readAch(fields);
      break;
    case 'check':
      details = readCheck(fields);
      break;
    case 'money_order':
      details = readMoneyOrder(fields);
      break;
    case 'cash':
      details = readCash(fields);
      break;
    case undefined:
      break;
  }
  if (firstName === undefined || lastName === undefined || details === undefined) return undefined;
  return { saved: false, firstName, lastName, reuseable, billingAddress, details };
}

/**
 * Checks the form of every field of a retail payment (400/4 naming each parameter at fault, all of
 * them at once). Ids are only checked to be UUIDs here; the service looks them up. `today` is the
 * facility's date, for card expiry.
 */
export function validateRetailPayment(command: PayRetailCommand, today: string): ValidRetailPayment {
  const problems: Problem[] = [];
  const tenantId = readTenantId(command.tenantId, problems);
  const lines = readLines(command.invoiceableItems, problems);
  const method = command.paymentMethod;
  if (method === undefined || method === null) problems.push(problem(['paymentMethod'], 'is required'));
  const validMethod = method ? readMethod(method, today, problems) : undefined;
  if (problems.length > 0 || validMethod === undefined) throw DomainError.invalid(problems);
  return { tenantId, lines, method: validMethod };
}
