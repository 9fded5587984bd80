import type { CardType, Expiry } from './cards';
import type { PaymentKind } from './payments.types';

/** What is charged: a card typed in, a card swiped, a bank account, or a method saved earlier. */
export type ChargeSource =
  | {
      type: 'card';
      pan: string;
      brand: CardType;
      securityCode: string;
      expiry: Expiry;
      holderName: string;
      billingPostal: string | null;
    }
  | { type: 'swipe'; pan: string; brand: CardType; expiry: Expiry; track: string; holderName: string }
  | {
      type: 'ach';
      routingNumber: string;
      accountNumber: string;
      accountType: string;
      bankName: string;
      holderName: string;
    }
  | {
      type: 'saved';
      paymentMethodId: string;
      /** The processor's token from when the method was saved; null for methods imported without one. */
      token: string | null;
      kind: 'credit_card' | 'card_swipe' | 'ach';
      last4: string | null;
    };

export interface ChargeRequest {
  /** This service's id of the payment: the processor's idempotency key, and what `void` names. */
  reference: string;
  amountCents: number;
  /** ISO 4217, upper case: the facility's currency. */
  currency: string;
  /** The facility, for the processor's records (metadata). */
  facilityId: string;
  source: ChargeSource;
  /** Ask for a token to charge this method again later (payment_method.reuseable). */
  saveForReuse: boolean;
  /** Aborted when the service stops waiting (the gateway's deadline passed). */
  signal: AbortSignal;
}

export type ChargeResult =
  | {
      approved: true;
      /** The processor's id of the charge. */
      gatewayReference: string;
      /** Set when saveForReuse was asked and the processor keeps the method. */
      token: string | null;
    }
  | {
      approved: false;
      /** Short, for the client: "card declined", "insufficient funds". Never holds card data. */
      message: string;
    };

/**
 * What `lookup` found under a reference: a charge that went through (then recorded), or none that
 * did (nothing was charged, or what was is already cancelled).
 */
export type LookupResult =
  { charged: true; gatewayReference: string; token: string | null } | { charged: false };

/**
 * Why the gateway could not give an answer; nothing may be assumed charged (the service voids).
 * `timeout` and `unavailable`: the processor said so (400/3); `bad_answer`: its answer could not be
 * read, or it could not be reached (502); `no_answer`: nothing came back within its deadline (504).
 */
export type PaymentGatewayFailure = 'timeout' | 'unavailable' | 'bad_answer' | 'no_answer';

/** The gateway could not give an answer: nothing may be assumed charged (the service voids). */
export class PaymentGatewayError extends Error {
  constructor(
    readonly reason: PaymentGatewayFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

/**
 * What an adapter to a real processor implements. `charge` answers approved or declined, or throws
 * PaymentGatewayError when it cannot tell; it must be idempotent by `reference`. `void` cancels
 * the charge made under a reference, and succeeds when there is none (it is called after timeouts
 * and after a failed commit, when the service cannot know whether money moved).
 */
export interface PaymentGateway {
  readonly name: string;
  /** How long the service waits for `charge` before it aborts, voids and answers 400/3. */
  readonly deadlineMs: number;
  /** Kinds this processor cannot take, with why; a payment of one answers 400/4. */
  readonly refusedKinds?: ReadonlyMap<PaymentKind, string>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  void(reference: string): Promise<void>;
  /**
   * What was charged under a reference, for settling a payment in doubt (the process stopped
   * between the charge and its record); throws PaymentGatewayError when the processor cannot tell.
   * Without it a payment in doubt is voided by its reference and its hold given back.
   */
  lookup?(reference: string): Promise<LookupResult>;
}
