import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { DomainError } from '../domain/errors';
import type { Facility } from '../domain/facilities/facilities.types';
import { readIdempotencyKey, requestFingerprint } from '../domain/payments/idempotency';
import type {
  PaymentEvent,
  RetailPaymentInput as RestRetailPayment,
} from '../domain/payments/payments.types';
import type { Tenant } from '../domain/tenants/tenants.types';
import type { GraphqlContext } from './context';
import { EventObject, eventView, type EventView } from './documents.types';
import { FacilityObject } from './facilities.types';
import { facilityOf } from './navigation';
import {
  RetailPaymentInput,
  SuccessfulPaymentEventObject,
  paymentView,
  type PaymentMethodInput,
  type PaymentView,
} from './payments.types';
import { UUIDScalar } from './scalars';
import { TenantObject } from './tenants.types';

const snakeToCamel = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** REST's parameter path as the mutation's arguments spell it: `payment_method.card_number` -> `input.paymentMethod.cardNumber`. */
export function graphqlParameter(rest: string): string {
  if (rest === 'Idempotency-Key') return 'idempotencyKey';
  const [head, ...rest_] = rest.split('.');
  const root =
    head === 'retail_payment' ? ['input'] : head === 'payment_method' ? ['input', 'paymentMethod'] : null;
  if (root === null) return snakeToCamel(rest);
  const tail = rest_.map((part) =>
    part === 'billing_address_attributes' ? 'billingAddress' : snakeToCamel(part),
  );
  return [...root, ...tail].join('.');
}

const REST_PATH = /\b(?:retail_payment|payment_method)(?:\.[a-z0-9_]+(?:\[\d+\])?|\[\d+\])*|Idempotency-Key/g;

function renamed(error: DomainError): DomainError {
  const rename = (text: string) => text.replace(REST_PATH, graphqlParameter);
  return new DomainError(error.kind, rename(error.message), {
    problems: error.problems.map((p) => ({
      parameter: graphqlParameter(p.parameter),
      message: rename(p.message),
    })),
    retryAfter: error.retryAfter,
  });
}

/** The typed input in the REST body's shape, so one service checks both transports alike. */
function restBody(input: RetailPaymentInput): RestRetailPayment {
  const m: PaymentMethodInput = input.paymentMethod;
  const address = m.billingAddress;
  return {
    retail_payment: {
      tenant_id: input.tenantId,
      invoiceable_items: input.invoiceableItems.map((item) => ({
        invoiceable_item_id: item.invoiceableItemId,
        quantity: item.quantity,
      })),
    },
    payment_method: {
      payment_method_id: m.paymentMethodId,
      first_name: m.firstName,
      last_name: m.lastName,
      kind: m.kind,
      reuseable: m.reuseable,
      card_number: m.cardNumber,
      card_type: m.cardType,
      security_code: m.securityCode,
      expiration_date: m.expirationDate,
      magnetic_track: m.magneticTrack,
      account_number: m.accountNumber,
      account_number_confirmation: m.accountNumberConfirmation,
      account_type: m.accountType,
      bank_name: m.bankName,
      routing_number: m.routingNumber,
      billing_address_attributes: address
        ? {
            company: address.company,
            address1: address.address1,
            address2: address.address2,
            city: address.city,
            state: address.state,
            postal: address.postal,
          }
        : address,
      billing_postal: m.billingPostal,
      check_number: m.checkNumber,
      name_on_check: m.nameOnCheck,
      check_amount: m.checkAmount,
      reference_number: m.referenceNumber,
      money_order_amount: m.moneyOrderAmount,
      amount_tendered: m.amountTendered,
    },
  };
}

// One loader per request (the loaders object is made per request): payments of a page of events in one batch.
const paymentLoaders = new WeakMap<object, DataLoader<string, PaymentEvent | null>>();

function paymentLoader(ctx: GraphqlContext): DataLoader<string, PaymentEvent | null> {
  let loader = paymentLoaders.get(ctx.loaders);
  if (!loader) {
    loader = new DataLoader((ids) => ctx.services.payments.paymentsByIds(ids));
    paymentLoaders.set(ctx.loaders, loader);
  }
  return loader;
}

interface StoredGraphqlAnswer {
  payment_event_id: string;
}

/** Retail payment (REST 4.11) as a mutation, and each payment event's payment. */
@Resolver(() => SuccessfulPaymentEventObject)
export class PaymentsResolver {
  @Mutation(() => SuccessfulPaymentEventObject, {
    description:
      'Pays for retail items (POST /v1/:facility_id/invoiceable_items/retail_payment), with the same checks. ' +
      'BAD_USER_INPUT names the input field at fault; ACTION_FAILED for a decline, a gateway that fails, not ' +
      'enough stock or a short tender; DISABLED_FOR_TENANTS when the facility takes no payments from tenants; ' +
      'CONFLICT for an idempotencyKey used before with other input. The same idempotencyKey and input answer ' +
      'the first payment again without charging (kept 24 hours).',
  })
  async payRetail(
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('input', () => RetailPaymentInput) input: RetailPaymentInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphqlContext,
  ): Promise<PaymentView> {
    const facility = await ctx.services.facilities.facilityFor(ctx.caller, facilityId, 'facilityId');
    ctx.loaders.facilities.prime(facility.id, facility);
    const body = restBody(input);
    try {
      const key = readIdempotencyKey(idempotencyKey ?? undefined);
      const outcome = await ctx.services.payments.payRetail(facility, ctx.caller, body, {
        idempotency: key
          ? {
              key,
              scope: 'graphql',
              fingerprint: requestFingerprint('retail_payment', facility.id, body),
              render: (event) => JSON.stringify({ payment_event_id: event.id } satisfies StoredGraphqlAnswer),
            }
          : undefined,
      });
      if (!outcome.replayed) return paymentView(outcome.event, facility.timeZone);
      const { payment_event_id: id } = JSON.parse(outcome.answer) as StoredGraphqlAnswer;
      const [event] = await ctx.services.payments.paymentsByIds([id]);
      if (!event) throw new Error(`payment ${id} of an idempotency key is missing`);
      return paymentView(event, facility.timeZone);
    } catch (error) {
      throw error instanceof DomainError ? renamed(error) : error;
    }
  }

  @FieldResolver(() => EventObject, {
    description: 'The event of the payment, with its documents (the receipt).',
  })
  event(@Root() payment: PaymentView): EventView {
    return eventView(
      {
        id: payment.id,
        facilityId: payment.facilityId,
        type: 'successful_payment_event',
        ledgerId: null,
        createdAt: payment.paidAt,
      },
      payment.timeZone,
    );
  }

  @FieldResolver(() => TenantObject, {
    nullable: true,
    description: 'The tenant who paid, if one was named.',
  })
  tenant(@Root() payment: PaymentView, @Ctx() ctx: GraphqlContext): Promise<Tenant | null> | null {
    return payment.tenantId === null ? null : ctx.loaders.tenants.load(payment.tenantId);
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() payment: PaymentView, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, payment, 'payment');
  }
}

@Resolver(() => EventObject)
export class EventPaymentResolver {
  @FieldResolver(() => SuccessfulPaymentEventObject, {
    nullable: true,
    description: 'For a successful payment event taken through this API: the payment. Null for other events.',
  })
  async successfulPayment(@Root() event: EventView, @Ctx() ctx: GraphqlContext): Promise<PaymentView | null> {
    if (event.type !== 'successful_payment_event') return null;
    const payment = await paymentLoader(ctx).load(event.id);
    return payment ? paymentView(payment, event.timeZone) : null;
  }
}
