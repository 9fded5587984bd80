import { maskedNumber } from './cards';
import type { BillingAddress, PaymentEvent, PaymentKind } from './payments.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';

const CARD_KINDS: ReadonlySet<PaymentKind> = new Set(['credit_card', 'card_swipe']);

/** A payment method as both transports show it: of a card, never more than brand, last four and expiry. */
export interface PaymentMethodView {
  id: string;
  kind: PaymentKind;
  firstName: string;
  lastName: string;
  reuseable: boolean;
  /** Cards: asterisks and the last four digits; null for other kinds. */
  cardNumber: string | null;
  cardType: string | null;
  expirationDate: string | null;
  /** As it was given (imported methods may name its fields otherwise). */
  billingAddress: BillingAddress | null;
}

export interface PaymentLineView {
  invoiceableItemId: string;
  description: string;
  quantity: number;
  unitTotal: number;
  lineTotal: number;
}

/** A payment as both transports show it; keeps what navigation from it needs. */
export interface PaymentView {
  id: string;
  facilityId: string;
  tenantId: string | null;
  paidAt: string;
  timeZone: string;
  amount: number;
  success: boolean;
  /** When it was paid, in the facility's zone. */
  date: string;
  changeDue: number;
  paymentMethod: PaymentMethodView;
  lines: PaymentLineView[];
}

/** A billing address's fields, whatever spelling it was stored under (imported ones may say postal_code). */
export function addressFields(address: BillingAddress) {
  return {
    company: address.company ?? null,
    address1: address.address1 ?? null,
    address2: address.address2 ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    postal: address.postal ?? address.postal_code ?? null,
  };
}

export function presentPayment(event: PaymentEvent, timeZone: string): PaymentView {
  const method = event.paymentMethod;
  const card = CARD_KINDS.has(method.kind);
  return {
    id: event.id,
    facilityId: event.facilityId,
    tenantId: event.tenantId,
    paidAt: event.paidAt,
    timeZone,
    amount: centsToAmount(event.amountCents),
    success: event.success,
    date: formatInstant(event.paidAt, timeZone),
    changeDue: centsToAmount(event.changeDueCents),
    paymentMethod: {
      id: method.id,
      kind: method.kind,
      firstName: method.firstName,
      lastName: method.lastName,
      reuseable: method.reuseable,
      cardNumber: card && method.last4 ? maskedNumber(method.last4) : null,
      cardType: card ? method.cardType : null,
      expirationDate: card ? method.expirationDate : null,
      billingAddress: method.billingAddress,
    },
    lines: event.lines.map((line) => ({
      invoiceableItemId: line.invoiceableItemId,
      description: line.description,
      quantity: line.quantity,
      unitTotal: centsToAmount(line.unitTotalCents),
      lineTotal: centsToAmount(line.lineTotalCents),
    })),
  };
}
