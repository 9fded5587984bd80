/**
 * Checks of card and bank data: Luhn, card brands by number range, security code lengths, `MM/YY`
 * expiry, magnetic stripe tracks and the ABA routing number checksum. Pure functions: nothing here
 * keeps, logs or echoes a number it is given.
 */

import { passesLuhn } from '../../kernel/card-numbers';

/** The Luhn check lives with the masking of card numbers found by value; the rules here use it too. */
export { passesLuhn };

export const CARD_TYPES = ['visa', 'mastercard', 'american_express', 'diners', 'discover', 'jcb'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Spellings legacy callers send for the contract's card_type values. */
const CARD_TYPE_ALIASES: Record<string, CardType> = {
  visa: 'visa',
  mastercard: 'mastercard',
  master_card: 'mastercard',
  american_express: 'american_express',
  americanexpress: 'american_express',
  amex: 'american_express',
  diners: 'diners',
  diners_club: 'diners',
  discover: 'discover',
  jcb: 'jcb',
};

export function parseCardType(raw: string): CardType | null {
  return (
    CARD_TYPE_ALIASES[
      raw
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    ] ?? null
  );
}

export const CARD_TYPE_NAMES: Record<CardType, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  american_express: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
};

/** The brand a card number belongs to by its issuer range and length, or null when none matches. */
export function cardBrandOf(pan: string): CardType | null {
  const length = pan.length;
  const prefix = (n: number) => Number(pan.slice(0, n));
  const p2 = prefix(2);
  const p3 = prefix(3);
  const p4 = prefix(4);
  const p6 = prefix(6);
  if (pan.startsWith('4') && (length === 13 || length === 16 || length === 19)) return 'visa';
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && length === 16) return 'mastercard';
  if ((p2 === 34 || p2 === 37) && length === 15) return 'american_express';
  if (
    ((p3 >= 300 && p3 <= 305) || p4 === 3095 || p2 === 36 || p2 === 38 || p2 === 39) &&
    length >= 14 &&
    length <= 19
  ) {
    return 'diners';
  }
  if (
    (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65 || (p6 >= 622126 && p6 <= 622925)) &&
    length >= 16 &&
    length <= 19
  ) {
    return 'discover';
  }
  if (p4 >= 3528 && p4 <= 3589 && length >= 16 && length <= 19) return 'jcb';
  return null;
}

/** Digits of the security code printed on a card of the brand. */
export function securityCodeLength(brand: CardType): number {
  return brand === 'american_express' ? 4 : 3;
}

export interface Expiry {
  month: number;
  /** Four-digit year. */
  year: number;
}

/** `MM/YY` as printed on a card; null when malformed. */
export function parseExpiry(raw: string): Expiry | null {
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(raw.trim());
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

export function formatExpiry(expiry: Expiry): string {
  return `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}`;
}

/** A card is valid through the last day of its expiry month; `today` is `YYYY-MM-DD`. */
export function isExpired(expiry: Expiry, today: string): boolean {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

/** Cards are not issued for longer than this; a later expiry is a typing mistake. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

export function isTooFarAhead(expiry: Expiry, today: string): boolean {
  return expiry.year > Number(today.slice(0, 4)) + MAX_EXPIRY_YEARS_AHEAD;
}

/** What a swipe's tracks say: the card number, the holder's name (track 1 only) and the expiry. */
export interface TrackData {
  pan: string;
  expiry: Expiry;
  /** `LAST/FIRST` split, when track 1 was read. */
  holder: { firstName: string; lastName: string } | null;
}

export type TrackProblem = 'unreadable' | 'tracks_disagree' | 'bad_expiry';

// Track 1 (IATA): %B<PAN>^<NAME>^<YYMM><service code><discretionary>?
const TRACK1 = /%B(\d{12,19})\^([^^?]{2,26})\^(\d{2})(\d{2})(\d{3}|\^)[^?]*\?/;
// Track 2 (ABA): ;<PAN>=<YYMM><service code><discretionary>?
const TRACK2 = /;(\d{12,19})=(\d{2})(\d{2})(\d{3}|=)[^?]*\?/;

function trackExpiry(yy: string, mm: string): Expiry | null {
  const month = Number(mm);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(yy) };
}

function holderOf(name: string): { firstName: string; lastName: string } | null {
  const [last, first = ''] = name.split('/');
  const lastName = last.trim();
  const firstName = first.trim();
  return lastName || firstName ? { firstName, lastName } : null;
}

/** Reads track 1 and/or track 2 of a magnetic stripe as a reader sends them. */
export function parseTracks(raw: string): TrackData | TrackProblem {
  const one = TRACK1.exec(raw);
  const two = TRACK2.exec(raw);
  if (!one && !two) return 'unreadable';
  const pan1 = one?.[1];
  const pan2 = two?.[1];
  const expiry1 = one ? trackExpiry(one[3], one[4]) : undefined;
  const expiry2 = two ? trackExpiry(two[2], two[3]) : undefined;
  if (expiry1 === null || expiry2 === null) return 'bad_expiry';
  if (pan1 && pan2 && pan1 !== pan2) return 'tracks_disagree';
  if (expiry1 && expiry2 && (expiry1.month !== expiry2.month || expiry1.year !== expiry2.year)) {
    return 'tracks_disagree';
  }
  return {
    pan: (pan1 ?? pan2) as string,
    expiry: (expiry1 ?? expiry2) as Expiry,
    holder: one ? holderOf(one[2]) : null,
  };
}

/** The ABA checksum of a nine-digit US routing number: 3-7-1 weights, sum divisible by 10. */
export function isValidRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing) || /^0{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

/** Twelve asterisks and the last four digits: the same width whatever the card's length. */
export function maskedNumber(last4: string): string {
  return `************${last4}`;
}
