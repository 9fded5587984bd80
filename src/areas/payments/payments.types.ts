import type { EventType } from '../documents/documents.types';
import type { CardType, Expiry } from './cards';
import type { PaymentKind, paymentLines, paymentMethods, payments } from './payments.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type { EventType };

export type { PaymentKind };

export const PAYMENT_KINDS: readonly PaymentKind[] = [
  'credit_card',
  'card_swipe',
  'ach',
  'check',
  'cash',
  'money_order',
];

/** Kinds charged through the payment gateway; the others are tendered at the counter. */
export const GATEWAY_KINDS: ReadonlySet<PaymentKind> = new Set(['credit_card', 'card_swipe', 'ach']);

/** One line of a retail payment: an item and how many (REST gives the number as text or a number). */
export interface RetailLineCommand {
  invoiceableItemId?: string | null;
  quantity?: string | number | null;
}

export interface BillingAddressCommand {
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  postal?: string | null;
}

/**
 * A saved method (paymentMethodId), or a new one: its owner's name, its kind, its billing address
 * and the fields of its kind. Amounts come as numbers or decimal text.
 */
export interface PaymentMethodCommand {
  paymentMethodId?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  kind?: string | null;
  reuseable?: boolean | string | null;
  cardNumber?: string | null;
  cardType?: string | null;
  securityCode?: string | null;
  expirationDate?: string | null;
  magneticTrack?: string | null;
  accountNumber?: string | null;
  accountNumberConfirmation?: string | null;
  accountType?: string | null;
  bankName?: string | null;
  routingNumber?: string | null;
  billingAddress?: BillingAddressCommand | null;
  billingPostal?: string | null;
  checkNumber?: string | null;
  nameOnCheck?: string | null;
  checkAmount?: string | number | null;
  referenceNumber?: string | null;
  moneyOrderAmount?: string | number | null;
  amountTendered?: string | number | null;
}

/** A retail payment (contract 4.11): what is bought, for which tenant, and how it is paid. */
export interface PayRetailCommand {
  tenantId?: string | null;
  invoiceableItems?: readonly RetailLineCommand[] | null;
  paymentMethod?: PaymentMethodCommand | null;
}

export type BillingAddress = Record<string, string | null>;

/** A payment method as kept: never a full card or account number, only brand, last four and expiry. */
export type PaymentMethod = RecordOfTable<
  typeof paymentMethods,
  'card_last4' | 'billing_address' | 'gateway_token'
> & {
  /** Last four digits of the card, or of the bank account for ACH (the column says card_last4). */
  last4: string | null;
  billingAddress: BillingAddress | null;
};

/** A line of a payment, with its item's description. */
export type PaymentLine = RecordOfTable<typeof paymentLines, 'position'> & { description: string };

/** A successful_payment_event (contract 2.8) with what was bought. */
export type PaymentEvent = RecordOfTable<typeof payments, 'payment_method_id' | 'gateway_reference'> & {
  paymentMethod: PaymentMethod;
  lines: PaymentLine[];
};

/** A new method's own data, per kind, as validated (held in memory for the one request only). */
export type MethodDetails =
  | { kind: 'credit_card'; pan: string; brand: CardType; securityCode: string; expiry: Expiry }
  | { kind: 'card_swipe'; pan: string; brand: CardType; expiry: Expiry; track: string }
  | {
      kind: 'ach';
      routingNumber: string;
      accountNumber: string;
      accountType: string;
      bankName: string;
    }
  | { kind: 'check'; checkNumber: string; nameOnCheck: string; amountCents: number }
  | { kind: 'money_order'; referenceNumber: string; amountCents: number }
  | { kind: 'cash'; tenderedCents: number };

export interface NewMethodInput {
  saved: false;
  firstName: string;
  lastName: string;
  reuseable: boolean;
  billingAddress: BillingAddress | null;
  details: MethodDetails;
}

export interface SavedMethodInput {
  saved: true;
  id: string;
}

export interface RetailLineInput {
  /** Position in invoiceableItems, for naming the parameter. */
  index: number;
  itemId: string;
  quantity: number;
}

/** A retail payment whose every field has the right form; ids are not yet looked up. */
export interface ValidRetailPayment {
  tenantId: string | null;
  lines: RetailLineInput[];
  method: NewMethodInput | SavedMethodInput;
}
