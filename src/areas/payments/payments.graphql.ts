import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type {
  BillingAddress,
  BillingAddressCommand,
  PaymentEvent,
  PaymentKind,
  PaymentMethodCommand,
  PayRetailCommand,
  RetailLineCommand,
} from './payments.types';
import {
  present as presentPayment,
  type PaymentLineView,
  type PaymentMethodView,
  type PaymentView,
} from './payment-event.contract';
import { DateTimeScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';

/** Payment kinds in GraphQL's spelling; the values are the stored (REST) ones. */
export const PaymentKindEnum = {
  CREDIT_CARD: 'credit_card',
  CARD_SWIPE: 'card_swipe',
  ACH: 'ach',
  CHECK: 'check',
  CASH: 'cash',
  MONEY_ORDER: 'money_order',
} as const;

registerEnumType(PaymentKindEnum, {
  name: 'PaymentKind',
  description: 'Cards and ACH are charged through the payment gateway; the rest are tendered at the counter.',
});

export const CardTypeEnum = {
  VISA: 'visa',
  MASTERCARD: 'mastercard',
  AMERICAN_EXPRESS: 'american_express',
  DINERS: 'diners',
  DISCOVER: 'discover',
  JCB: 'jcb',
} as const;

registerEnumType(CardTypeEnum, { name: 'CardType', description: 'Card brands accepted.' });

export const AccountTypeEnum = { CHECKING: 'checking', SAVINGS: 'savings' } as const;

registerEnumType(AccountTypeEnum, { name: 'AccountType', description: 'Kinds of bank account for ACH.' });

@InputType('RetailPaymentItemInput', { description: 'One line: a retail item of the facility and how many.' })
export class RetailPaymentItemInput implements RetailLineCommand {
  @Field(() => UUIDScalar)
  invoiceableItemId: string;

  @Field(() => Int, { description: 'A whole number from 1 to 1000.' })
  quantity: number;
}

@InputType('BillingAddressInput', { description: 'Every field optional.' })
export class BillingAddressInput implements BillingAddressCommand {
  @Field(() => String, { nullable: true })
  company?: string | null;

  @Field(() => String, { nullable: true })
  address1?: string | null;

  @Field(() => String, { nullable: true })
  address2?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  state?: string | null;

  @Field(() => String, { nullable: true })
  postal?: string | null;
}

@InputType('PaymentMethodInput', {
  description:
    'A saved method (paymentMethodId), or a new one: firstName, lastName, kind, billingAddress and the fields of its kind. ' +
    'The same rules as REST payment_method: card numbers by Luhn and brand, security code length, MM/YY expiry, ' +
    'track data, ABA routing checksum, account confirmation, tenders.',
})
export class PaymentMethodInput implements PaymentMethodCommand {
  @Field(() => UUIDScalar, {
    nullable: true,
    description: 'A saved (reuseable) method of the facility, and of the tenant when one is given.',
  })
  paymentMethodId?: string | null;

  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Field(() => PaymentKindEnum, { nullable: true })
  kind?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Save the method to pay with again (cards and ACH): only brand, last four digits and expiry are kept.',
  })
  reuseable?: boolean | null;

  @Field(() => String, { nullable: true, description: 'CREDIT_CARD: 12-19 digits.' })
  cardNumber?: string | null;

  @Field(() => CardTypeEnum, { nullable: true, description: 'CREDIT_CARD: the brand of cardNumber.' })
  cardType?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'CREDIT_CARD: 4 digits for American Express, 3 for others.',
  })
  securityCode?: string | null;

  @Field(() => String, { nullable: true, description: 'CREDIT_CARD: MM/YY, not in the past.' })
  expirationDate?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'CARD_SWIPE: track 1 and/or track 2 as the reader sends them.',
  })
  magneticTrack?: string | null;

  @Field(() => String, { nullable: true, description: 'ACH: 4-17 digits.' })
  accountNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'ACH: equal to accountNumber.' })
  accountNumberConfirmation?: string | null;

  @Field(() => AccountTypeEnum, { nullable: true })
  accountType?: string | null;

  @Field(() => String, { nullable: true })
  bankName?: string | null;

  @Field(() => String, { nullable: true, description: 'ACH: 9 digits with a valid ABA checksum.' })
  routingNumber?: string | null;

  @Field(() => BillingAddressInput, { nullable: true, description: 'Required for a new method.' })
  billingAddress?: BillingAddressInput | null;

  @Field(() => String, { nullable: true, description: 'Postal code, when billingAddress has none.' })
  billingPostal?: string | null;

  @Field(() => String, { nullable: true, description: 'CHECK: 1-15 digits.' })
  checkNumber?: string | null;

  @Field(() => String, { nullable: true })
  nameOnCheck?: string | null;

  @Field(() => MoneyScalar, { nullable: true, description: 'CHECK: equal to the charge.' })
  checkAmount?: number | null;

  @Field(() => String, { nullable: true, description: 'MONEY_ORDER.' })
  referenceNumber?: string | null;

  @Field(() => MoneyScalar, { nullable: true, description: 'MONEY_ORDER: equal to the charge.' })
  moneyOrderAmount?: number | null;

  @Field(() => MoneyScalar, {
    nullable: true,
    description: 'CASH: at least the charge; the rest is changeDue.',
  })
  amountTendered?: number | null;
}

@InputType('RetailPaymentInput', {
  description: 'The same fields as REST retail_payment and payment_method.',
})
export class RetailPaymentInput implements PayRetailCommand {
  @Field(() => UUIDScalar, {
    nullable: true,
    description: 'A tenant of the facility to associate the payment with.',
  })
  tenantId?: string | null;

  @Field(() => [RetailPaymentItemInput], { description: 'At least one retail item of the facility.' })
  invoiceableItems: RetailPaymentItemInput[];

  @Field(() => PaymentMethodInput)
  paymentMethod: PaymentMethodInput;
}

@ObjectType('BillingAddress', { simpleResolvers: true })
export class BillingAddressObject {
  @Field(() => String, { nullable: true })
  company: string | null;

  @Field(() => String, { nullable: true })
  address1: string | null;

  @Field(() => String, { nullable: true })
  address2: string | null;

  @Field(() => String, { nullable: true })
  city: string | null;

  @Field(() => String, { nullable: true })
  state: string | null;

  @Field(() => String, { nullable: true })
  postal: string | null;
}

@ObjectType('PaymentMethod', {
  simpleResolvers: true,
  description:
    'How a payment was made: never more of a card or account than its brand, last four digits and expiry.',
})
export class PaymentMethodObject implements Omit<PaymentMethodView, 'billingAddress'> {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => PaymentKindEnum)
  kind: PaymentKind;

  @Field(() => String)
  firstName: string;

  @Field(() => String)
  lastName: string;

  @Field(() => Boolean, { description: 'Whether paymentMethodId may name it again.' })
  reuseable: boolean;

  @Field(() => String, { nullable: true, description: 'Cards: asterisks and the last four digits.' })
  cardNumber: string | null;

  @Field(() => String, { nullable: true, description: 'Cards: the brand.' })
  cardType: string | null;

  @Field(() => String, { nullable: true, description: 'Cards: MM/YY.' })
  expirationDate: string | null;

  @Field(() => BillingAddressObject, { nullable: true })
  billingAddress: BillingAddressObject | null;
}

@ObjectType('PaymentLine', { simpleResolvers: true, description: 'One retail item paid for.' })
export class PaymentLineObject implements PaymentLineView {
  @Field(() => UUIDScalar)
  invoiceableItemId: string;

  @Field(() => String)
  description: string;

  @Field(() => Int)
  quantity: number;

  @Field(() => MoneyScalar, { description: 'The item total (tax included) when it was paid.' })
  unitTotal: number;

  @Field(() => MoneyScalar)
  lineTotal: number;
}

@ObjectType('SuccessfulPaymentEvent', {
  simpleResolvers: true,
  description: 'A payment taken (REST 2.8); its receipt is among its event documents.',
})
export class SuccessfulPaymentEventObject implements Omit<
  PaymentObjectView,
  'facilityId' | 'tenantId' | 'paidAt' | 'timeZone'
> {
  /** A payment as this type answers it: the contract's view, its billing address in typed fields. */
  static present(event: PaymentEvent, timeZone: string): PaymentObjectView {
    return paymentObject(presentPayment(event, timeZone));
  }

  @Field(() => UUIDScalar, { description: 'Also the id of its Event.' })
  id: string;

  @Field(() => MoneyScalar)
  amount: number;

  @Field(() => Boolean)
  success: boolean;

  @Field(() => DateTimeScalar, { description: "When it was paid, in the facility's zone." })
  date: string;

  @Field(() => MoneyScalar, { description: 'Cash: what was tendered above the charge; 0 otherwise.' })
  changeDue: number;

  @Field(() => PaymentMethodObject)
  paymentMethod: PaymentMethodObject;

  @Field(() => [PaymentLineObject], { description: 'In the order the payment listed them.' })
  lines: PaymentLineObject[];
}

/** A billing address's fields, whatever spelling it was stored under (imported ones may say postal_code). */
function addressFields(address: BillingAddress): BillingAddressObject {
  return {
    company: address.company ?? null,
    address1: address.address1 ?? null,
    address2: address.address2 ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    postal: address.postal ?? address.postal_code ?? null,
  };
}

/** A payment as GraphQL answers it: the presented payment, its billing address in typed fields. */
export type PaymentObjectView = Omit<PaymentView, 'paymentMethod'> & { paymentMethod: PaymentMethodObject };

function paymentObject(view: PaymentView): PaymentObjectView {
  const address = view.paymentMethod.billingAddress;
  return {
    ...view,
    paymentMethod: { ...view.paymentMethod, billingAddress: address ? addressFields(address) : null },
  };
}
