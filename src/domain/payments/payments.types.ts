import type { EventType, PaymentKind } from '../../store/schema';
import type { CardType, Expiry } from './cards';

export type { EventType, PaymentKind };

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

/** The body of a retail payment as a transport received it; the service checks every field. */
export interface RetailPaymentInput {
  retail_payment?: unknown;
  payment_method?: unknown;
}

export type BillingAddress = Record<string, string | null>;

/** A payment method as kept: never a full card or account number, only brand, last four and expiry. */
export interface PaymentMethod {
  id: string;
  facilityId: string;
  tenantId: string | null;
  kind: PaymentKind;
  firstName: string;
  lastName: string;
  /** Whether `payment_method_id` may name it again. */
  reuseable: boolean;
  /** Last four digits of the card, or of the bank account for ACH. */
  last4: string | null;
  cardType: string | null;
  /** `MM/YY`. */
  expirationDate: string | null;
  billingAddress: BillingAddress | null;
  createdAt: string;
}

export interface PaymentLine {
  id: string;
  paymentId: string;
  invoiceableItemId: string;
  description: string;
  quantity: number;
  unitTotalCents: number;
  lineTotalCents: number;
}

/** A successful_payment_event (contract 2.8) with what was bought. */
export interface PaymentEvent {
  id: string;
  facilityId: string;
  tenantId: string | null;
  amountCents: number;
  /** Cash only: what was tendered above the charge; 0 otherwise. */
  changeDueCents: number;
  success: boolean;
  /** Stored UTC instant. */
  paidAt: string;
  paymentMethod: PaymentMethod;
  lines: PaymentLine[];
}

/** An event of a facility: move-in, move-out or successful payment. */
export interface FacilityEvent {
  id: string;
  facilityId: string;
  type: EventType;
  ledgerId: string | null;
  createdAt: string;
}

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
  /** Position in retail_payment.invoiceable_items, for naming the parameter. */
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
