import { Type, type Static } from '@sinclair/typebox';
import { maskedNumber } from './cards';
import type { BillingAddress, PaymentEvent, PaymentKind, PaymentLine } from './payments.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Instant, Money, Nullable, NullableText, StringEnum, Text, Uuid } from '../../contract/kit';

const CARD_KINDS: ReadonlySet<PaymentKind> = new Set(['credit_card', 'card_swipe']);

/**
 * Contract 2.8: the card as asterisks and its last four digits, brand, expiry and billing address
 * (null for methods that are not cards). `change_due` is ours: what cash tendered above the charge.
 */
export const schema = Type.Object(
  {
    id: Uuid(),
    amount: Money(),
    success: Type.Boolean(),
    date: Instant(),
    payment_method: Type.Object({
      id: Uuid(),
      kind: StringEnum(['credit_card', 'card_swipe', 'ach', 'check', 'cash', 'money_order']),
      first_name: Text(),
      last_name: Text(),
      reuseable: Type.Boolean(),
      card_number: Nullable(Text({ description: 'Cards: asterisks and the last four digits' })),
      card_type: NullableText(),
      expiration_date: Nullable(Text({ description: 'Cards: MM/YY' })),
      // As it was given (imported methods may name its fields otherwise).
      billing_address: Type.Unsafe<BillingAddress | null>({
        type: 'object',
        nullable: true,
        additionalProperties: { type: 'string', nullable: true },
      }),
    }),
    change_due: Money(),
  },
  { $id: 'PaymentEvent' },
);

type ContractView = ViewOf<typeof schema>;

/** A payment method as both transports show it: of a card, never more than brand, last four and expiry. */
export type PaymentMethodView = ContractView['paymentMethod'];

/** A line as GraphQL shows it (REST's answer has none): money in units. */
export type PaymentLineView = Pick<PaymentLine, 'invoiceableItemId' | 'description' | 'quantity'> & {
  unitTotal: number;
  lineTotal: number;
};

/** A payment as both transports show it; keeps what navigation from it needs. */
export type PaymentView = ContractView &
  Pick<PaymentEvent, 'facilityId' | 'tenantId' | 'paidAt'> & {
    timeZone: string;
    lines: PaymentLineView[];
  };

const paymentCases = cases(schema);

export function present(event: PaymentEvent, timeZone: string): PaymentView {
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

export function toContract(payment: PaymentEvent, timeZone: string): Static<typeof schema> {
  return paymentCases.toContract(present(payment, timeZone));
}
