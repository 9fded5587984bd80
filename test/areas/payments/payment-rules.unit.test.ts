import { DomainError } from '../../../src/kernel/errors';
import {
  cardBrandOf,
  formatExpiry,
  isExpired,
  isTooFarAhead,
  isValidRoutingNumber,
  maskedNumber,
  parseCardType,
  parseExpiry,
  parseTracks,
  passesLuhn,
  securityCodeLength,
} from '../../../src/areas/payments/cards';
import type { PayRetailCommand } from '../../../src/areas/payments/payments.types';
import { validateRetailPayment } from '../../../src/areas/payments/payments.validation';

const TODAY = '2026-07-04';
const ITEM = '6f1c1b7e-1f0a-4c55-9d55-2d7a1f0c1a01';

/** The problems a command has, as paths and messages in the command's own names. */
function problemsOf(command: PayRetailCommand): Array<[string, string]> {
  try {
    validateRetailPayment(command, TODAY);
    return [];
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.problems.map((p) => [
      p.path.join('.'),
      p.message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(''),
    ]);
  }
}

const card = (overrides: Record<string, unknown> = {}): PayRetailCommand => ({
  invoiceableItems: [{ invoiceableItemId: ITEM, quantity: 1 }],
  paymentMethod: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    kind: 'credit_card',
    cardNumber: '4111 1111 1111 1111',
    cardType: 'visa',
    securityCode: '123',
    expirationDate: '12/30',
    billingAddress: { postal: '62701' },
    ...overrides,
  },
});

describe('card rules', () => {
  it('checks the Luhn digit and tells the brand by the number', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(cardBrandOf('4111111111111111')).toBe('visa');
    expect(cardBrandOf('5555555555554444')).toBe('mastercard');
    expect(cardBrandOf('378282246310005')).toBe('american_express');
    expect(cardBrandOf('6011000990139424')).toBe('discover');
    expect(cardBrandOf('9999999999999995')).toBeNull();
    expect(parseCardType('American Express')).toBe('american_express');
    expect(parseCardType('amex')).toBe('american_express');
    expect(securityCodeLength('american_express')).toBe(4);
    expect(securityCodeLength('visa')).toBe(3);
  });

  it('reads MM/YY expiries: expired after their month, too far ahead after twenty years', () => {
    const expiry = parseExpiry('07/26')!;
    expect(formatExpiry(expiry)).toBe('07/26');
    expect(isExpired(expiry, '2026-07-31')).toBe(false);
    expect(isExpired(expiry, '2026-08-01')).toBe(true);
    expect(isTooFarAhead(parseExpiry('12/47')!, TODAY)).toBe(true);
    expect(parseExpiry('13/26')).toBeNull();
  });

  it('reads swiped tracks 1 and 2, and refuses tracks that disagree', () => {
    expect(parseTracks('%B4111111111111111^LOVELACE/ADA^3012101?')).toMatchObject({
      pan: '4111111111111111',
    });
    expect(parseTracks(';4111111111111111=30121015432112345678?')).toMatchObject({ pan: '4111111111111111' });
    expect(
      parseTracks('%B4111111111111111^LOVELACE/ADA^3012101?;5555555555554444=30121015432112345678?'),
    ).toBe('tracks_disagree');
    expect(parseTracks('not a track')).toBe('unreadable');
    expect(parseTracks(';4111111111111111=30131015432112345678?')).toBe('bad_expiry');
  });

  it('checks ABA routing numbers, and masks all but the last four digits', () => {
    expect(isValidRoutingNumber('011000015')).toBe(true);
    expect(isValidRoutingNumber('011000016')).toBe(false);
    expect(maskedNumber('1111')).toBe('************1111');
  });
});

describe("retail payment validation, in the command's names", () => {
  it('takes a valid card payment: digits only, brand checked', () => {
    const valid = validateRetailPayment(card(), TODAY);
    expect(valid.lines).toEqual([{ index: 0, itemId: ITEM, quantity: 1 }]);
    expect(valid.method).toMatchObject({
      saved: false,
      details: { kind: 'credit_card', pan: '4111111111111111', brand: 'visa' },
    });
  });

  it.each<[string, PayRetailCommand, Array<[string, string]>]>([
    [
      'a wrong check digit',
      card({ cardNumber: '4111111111111112' }),
      [['paymentMethod.cardNumber', 'is not a valid card number (its check digit is wrong)']],
    ],
    [
      "a brand that is not the number's",
      card({ cardType: 'mastercard' }),
      [['paymentMethod.cardType', 'is mastercard, but the card number is a Visa card (visa)']],
    ],
    [
      'a short security code for Amex',
      card({ cardNumber: '378282246310005', cardType: 'american_express', securityCode: '123' }),
      [['paymentMethod.securityCode', 'must be 4 digits for an American Express card']],
    ],
    [
      'an expired card',
      card({ expirationDate: '06/26' }),
      [['paymentMethod.expirationDate', 'is in the past: the card has expired']],
    ],
    [
      'no items',
      { ...card(), invoiceableItems: [] },
      [['invoiceableItems', 'must name at least one retail item']],
    ],
    [
      'a quantity of 0',
      { ...card(), invoiceableItems: [{ invoiceableItemId: ITEM, quantity: 0 }] },
      [['invoiceableItems.0.quantity', 'must be a whole number from 1 to 1000']],
    ],
    [
      'the same item twice',
      {
        ...card(),
        invoiceableItems: [
          { invoiceableItemId: ITEM, quantity: 1 },
          { invoiceableItemId: ITEM, quantity: 2 },
        ],
      },
      [
        [
          'invoiceableItems.1.invoiceableItemId',
          'repeats the item of ["invoiceableItems",0]; give its whole quantity once',
        ],
      ],
    ],
    [
      'an ACH account confirmation that differs, and a bad routing number',
      {
        ...card(),
        paymentMethod: {
          firstName: 'A',
          lastName: 'L',
          kind: 'ach',
          accountNumber: '000123456789',
          accountNumberConfirmation: '000123456780',
          accountType: 'checking',
          bankName: 'First',
          routingNumber: '011000016',
          billingAddress: {},
        },
      },
      [
        ['paymentMethod.accountNumberConfirmation', 'does not match ["paymentMethod","accountNumber"]'],
        ['paymentMethod.routingNumber', 'is not a valid ABA routing number (its checksum is wrong)'],
      ],
    ],
    [
      'cash with three decimals',
      {
        ...card(),
        paymentMethod: {
          firstName: 'A',
          lastName: 'L',
          kind: 'cash',
          amountTendered: '10.005',
          billingAddress: {},
        },
      },
      [['paymentMethod.amountTendered', 'must be an amount with at most two decimals, such as 12.50']],
    ],
    [
      'no payment method',
      { invoiceableItems: [{ invoiceableItemId: ITEM, quantity: 1 }] },
      [['paymentMethod', 'is required']],
    ],
  ])('refuses %s', (_label, command, problems) => {
    expect(problemsOf(command)).toEqual(problems);
  });
});
