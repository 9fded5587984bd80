import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { Facility } from '../facilities/facilities.types';
import { readIdempotencyKey } from './idempotency';
import type { PaymentEvent } from './payments.types';
import type { PaymentsService } from './payments.service';
import type { Tenant } from '../tenants/tenants.types';
import type { GraphqlContext } from '../../graphql/context';
import { EventObject, type EventView } from '../documents/documents.graphql';
import { withArgumentNames } from '../../graphql/errors';
import { facilityOf } from '../../graphql/loaders';
import { FacilityObject } from '../facilities/facilities.graphql';
import { RetailPaymentInput, SuccessfulPaymentEventObject, type PaymentObjectView } from './payments.graphql';
import { UUIDScalar } from '../../graphql/scalars';
import { TenantObject } from '../tenants/tenants.graphql';

/** The payment command's fields are the input's. */
const PAYMENT_NAMES = {
  tenantId: 'input.tenantId',
  invoiceableItems: 'input.invoiceableItems',
  paymentMethod: 'input.paymentMethod',
};

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly payments: PaymentsService;
}

// One loader per request (the loaders object is made per request): payments of a page of events in one batch.
const paymentLoaders = new WeakMap<object, DataLoader<string, PaymentEvent | null>>();

function paymentLoader(
  ctx: GraphqlContext,
  payments: PaymentsService,
): DataLoader<string, PaymentEvent | null> {
  let loader = paymentLoaders.get(ctx.loaders);
  if (!loader) {
    loader = new DataLoader((ids) => payments.paymentsByIds(ids));
    paymentLoaders.set(ctx.loaders, loader);
  }
  return loader;
}

/** Retail payment (REST 4.11) as a mutation, and each payment event's payment. */
@Resolver(() => SuccessfulPaymentEventObject)
export class PaymentsResolver {
  constructor(private readonly services: ResolverServices) {}

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
  ): Promise<PaymentObjectView> {
    const facility = await ctx.loaders.facility(facilityId);
    ctx.loaders.facilities.prime(facility.id, facility);
    const outcome = await withArgumentNames(PAYMENT_NAMES, () => {
      const key = readIdempotencyKey(idempotencyKey ?? undefined);
      return this.services.payments.payRetail(facility, ctx.caller, input, {
        idempotency: key ? { key, scope: 'graphql' } : undefined,
      });
    });
    if (!outcome.replayed) return SuccessfulPaymentEventObject.present(outcome.event, facility.timeZone);
    // GraphQL keeps no answer of its own: the payment is answered again from what was recorded.
    const id = outcome.paymentEventId;
    const [event] = id ? await this.services.payments.paymentsByIds([id]) : [null];
    if (!event) throw new Error(`payment ${id} of an idempotency key is missing`);
    return SuccessfulPaymentEventObject.present(event, facility.timeZone);
  }

  @FieldResolver(() => EventObject, {
    description: 'The event of the payment, with its documents (the receipt).',
  })
  event(@Root() payment: PaymentObjectView): EventView {
    return EventObject.present(
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
  tenant(@Root() payment: PaymentObjectView, @Ctx() ctx: GraphqlContext): Promise<Tenant | null> | null {
    return payment.tenantId === null ? null : ctx.loaders.tenants.load(payment.tenantId);
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() payment: PaymentObjectView, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, payment, 'payment');
  }
}

@Resolver(() => EventObject)
export class EventPaymentResolver {
  constructor(private readonly services: Pick<ResolverServices, 'payments'>) {}

  @FieldResolver(() => SuccessfulPaymentEventObject, {
    nullable: true,
    description: 'For a successful payment event taken through this API: the payment. Null for other events.',
  })
  async successfulPayment(
    @Root() event: EventView,
    @Ctx() ctx: GraphqlContext,
  ): Promise<PaymentObjectView | null> {
    if (event.type !== 'successful_payment_event') return null;
    const payment = await paymentLoader(ctx, this.services.payments).load(event.id);
    return payment ? SuccessfulPaymentEventObject.present(payment, event.timeZone) : null;
  }
}
