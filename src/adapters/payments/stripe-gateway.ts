import Stripe from 'stripe';
import {
  PaymentGatewayError,
  type ChargeRequest,
  type ChargeResult,
  type LookupResult,
  type PaymentGateway,
} from '../../areas/payments/gateway';
import type { PaymentKind } from '../../areas/payments/payments.types';

/** The metadata key under which each PaymentIntent names this service's payment. */
export const PAYMENT_METADATA_KEY = 'facility_ops_payment_id';

/** How much later than the SDK's deadline the service's own one ends a charge. */
const SERVICE_BACKSTOP_MS = 2000;

/** How far back a lookup lists PaymentIntents: a payment in doubt is at most this old when settled. */
const LOOKUP_WINDOW_S = 7 * 24 * 3600;

/** Kinds Stripe cannot take through its API, with why (docs/payments.md#kinds-a-processor-refuses). */
const REFUSED_KINDS: ReadonlyMap<PaymentKind, string> = new Map([
  [
    'card_swipe',
    'the stripe processor refuses it: Stripe takes no magnetic stripe track through its API (key the card in as credit_card, or use a Stripe Terminal reader)',
  ],
  [
    'ach',
    'the stripe processor refuses it: Stripe takes bank accounts only after they are verified through its own flows, which this service does not run',
  ],
]);

/** Decline codes as the client reads them; never card data. */
const DECLINES: Readonly<Record<string, string>> = {
  insufficient_funds: 'insufficient funds',
  expired_card: 'expired card',
  incorrect_cvc: 'incorrect security code',
  incorrect_number: 'incorrect card number',
  lost_card: 'card declined',
  stolen_card: 'card declined',
  processing_error: 'the card could not be processed; try again',
};

export interface StripeGatewayOptions {
  secretKey: string;
  /** The API's base URL: https://api.stripe.com, or a local fake in tests. */
  apiUrl: string;
  /** How long one call to Stripe may take; the service waits a little longer for `charge`. */
  timeoutMs: number;
}

/**
 * Charges through Stripe's PaymentIntents API with the official SDK: one intent per payment,
 * created and confirmed at once, under the payment's id as its Idempotency-Key and in its metadata.
 * A method saved for reuse is attached to a Customer made for it; its token is
 * `<customer id>/<payment method id>`, charged again off-session. Card numbers go to Stripe in the
 * request body and nowhere else: nothing here logs or keeps them.
 */
export class StripePaymentGateway implements PaymentGateway {
  readonly name = 'stripe';
  readonly deadlineMs: number;
  readonly refusedKinds = REFUSED_KINDS;
  private readonly stripe: Stripe;

  constructor(options: StripeGatewayOptions) {
    const url = new URL(options.apiUrl);
    // The SDK's own deadline answers first (504); the service's, a little later, is the backstop.
    this.deadlineMs = options.timeoutMs + SERVICE_BACKSTOP_MS;
    this.stripe = new Stripe(options.secretKey, {
      host: url.hostname,
      port: url.port || (url.protocol === 'http:' ? 80 : 443),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      timeout: options.timeoutMs,
      // A retry is the caller's (under the same Idempotency-Key), so one deadline bounds a charge.
      maxNetworkRetries: 0,
      telemetry: false,
      appInfo: { name: 'facility-ops' },
    });
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const { source, reference } = request;
    const params: Stripe.PaymentIntentCreateParams = {
      amount: request.amountCents,
      currency: request.currency.toLowerCase(),
      confirm: true,
      metadata: { [PAYMENT_METADATA_KEY]: reference, facility_id: request.facilityId },
      // Typed-in card data: no redirect-based method can complete without a customer present.
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    };
    try {
      if (source.type === 'saved') {
        const [customer, paymentMethod] = (source.token ?? '').split('/');
        if (!customer?.startsWith('cus_') || !paymentMethod) {
          return {
            approved: false,
            message: 'this saved method has no payment method kept at the processor; enter the card again',
          };
        }
        Object.assign(params, { customer, payment_method: paymentMethod, off_session: true });
      } else if (source.type === 'card') {
        params.payment_method_data = {
          type: 'card',
          card: {
            number: source.pan,
            exp_month: source.expiry.month,
            exp_year: source.expiry.year,
            cvc: source.securityCode,
          },
          billing_details: {
            name: source.holderName,
            ...(source.billingPostal ? { address: { postal_code: source.billingPostal } } : {}),
          },
        } as Stripe.PaymentIntentCreateParams.PaymentMethodData;
        if (request.saveForReuse) {
          const customer = await this.stripe.customers.create(
            { name: source.holderName, metadata: { [PAYMENT_METADATA_KEY]: reference } },
            { idempotencyKey: `${reference}:customer` },
          );
          Object.assign(params, { customer: customer.id, setup_future_usage: 'off_session' });
        }
      } else {
        // Refused before the charge (refusedKinds); kept here so no other kind is sent.
        throw new PaymentGatewayError('unavailable', `stripe gateway: ${source.type} is not taken`);
      }
      const intent = await this.stripe.paymentIntents.create(params, { idempotencyKey: reference });
      return await this.answer(intent, request.saveForReuse);
    } catch (error) {
      const declined = declineOf(error);
      if (declined) return declined;
      throw failureOf(error);
    }
  }

  async void(reference: string): Promise<void> {
    let intent: Stripe.PaymentIntent | null;
    try {
      intent = await this.find(reference);
      if (!intent) return;
      if (intent.status === 'succeeded') {
        await this.stripe.refunds.create(
          { payment_intent: intent.id, metadata: { [PAYMENT_METADATA_KEY]: reference } },
          { idempotencyKey: `${reference}:void` },
        );
      } else if (intent.status !== 'canceled') {
        await this.stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `${reference}:void` });
      }
    } catch (error) {
      throw failureOf(error);
    }
  }

  async lookup(reference: string): Promise<LookupResult> {
    let intent: Stripe.PaymentIntent | null;
    try {
      intent = await this.find(reference);
    } catch (error) {
      throw failureOf(error);
    }
    if (!intent || intent.status !== 'succeeded') return { charged: false };
    return { charged: true, gatewayReference: intent.id, token: tokenOf(intent) };
  }

  /** The intent made under a reference: listed (not searched, which lags) by creation time. */
  private async find(reference: string): Promise<Stripe.PaymentIntent | null> {
    const since = Math.floor(Date.now() / 1000) - LOOKUP_WINDOW_S;
    for await (const intent of this.stripe.paymentIntents.list({ created: { gte: since }, limit: 100 })) {
      if (intent.metadata?.[PAYMENT_METADATA_KEY] === reference) return intent;
    }
    return null;
  }

  /** An intent after its confirmation: approved when it succeeded; anything else is cancelled. */
  private async answer(intent: Stripe.PaymentIntent, saveForReuse: boolean): Promise<ChargeResult> {
    if (intent.status === 'succeeded' || intent.status === 'processing') {
      return { approved: true, gatewayReference: intent.id, token: saveForReuse ? tokenOf(intent) : null };
    }
    if (intent.status !== 'canceled') {
      await this.stripe.paymentIntents.cancel(intent.id).catch(() => undefined);
    }
    if (intent.status === 'requires_action') {
      return {
        approved: false,
        message: 'the card asks for authentication (3-D Secure), which cannot be done here',
      };
    }
    const code = intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code;
    return { approved: false, message: (code && DECLINES[code]) || 'card declined' };
  }
}

function tokenOf(intent: Stripe.PaymentIntent): string | null {
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  const method =
    typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  return customer && method ? `${customer}/${method}` : null;
}

/** A card error is a decline, with Stripe's decline code as the client reads it. */
function declineOf(error: unknown): ChargeResult | null {
  if (!(error instanceof Stripe.errors.StripeCardError)) return null;
  const code = error.decline_code ?? error.code;
  return { approved: false, message: (code && DECLINES[code]) || 'card declined' };
}

/**
 * What a failed call means: no answer within the deadline (504), an answer that cannot be read or
 * no connection (502), or a failure Stripe reported itself (400/3, as the test gateway's).
 */
function failureOf(error: unknown): PaymentGatewayError {
  if (error instanceof PaymentGatewayError) return error;
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const detail = (error as { detail?: { code?: string } }).detail;
    return detail?.code === 'ETIMEDOUT'
      ? new PaymentGatewayError('no_answer', 'stripe: no answer within the deadline')
      : new PaymentGatewayError('bad_answer', 'stripe: the connection failed');
  }
  if (error instanceof Stripe.errors.StripeAPIError && error.statusCode === undefined) {
    return new PaymentGatewayError('bad_answer', 'stripe: the answer was not JSON');
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentGatewayError(
      'unavailable',
      `stripe: ${error.type} (${error.statusCode ?? 'no status'})`,
    );
  }
  return new PaymentGatewayError('bad_answer', 'stripe: the answer could not be read');
}
