import { Type, type Static } from '@sinclair/typebox';
import { maskedNumber } from './cards';
import type { BillingAddress, PaymentEvent, PaymentKind } from './payments.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
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

export function toContract(payment: PaymentEvent, timeZone: string): Static<typeof schema> {
  const method = payment.paymentMethod;
  const card = CARD_KINDS.has(method.kind);
  return {
    id: payment.id,
    amount: centsToAmount(payment.amountCents),
    success: payment.success,
    date: formatInstant(payment.paidAt, timeZone),
    payment_method: {
      id: method.id,
      kind: method.kind,
      first_name: method.firstName,
      last_name: method.lastName,
      reuseable: method.reuseable,
      card_number: card && method.last4 ? maskedNumber(method.last4) : null,
      card_type: card ? method.cardType : null,
      expiration_date: card ? method.expirationDate : null,
      billing_address: method.billingAddress,
    },
    change_due: centsToAmount(payment.changeDueCents),
  };
}
