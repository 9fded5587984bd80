import type { Facility } from '../facilities/facilities.types';
import type { InvoiceableItemKind } from '../invoiceable-items/invoiceable-items.types';
import type { DomainEvent } from '../../kernel/domain-events';
import type { PaymentEvent, PaymentMethod } from './payments.types';
import type { paymentAttempts } from './payments.tables';
import type { RecordOfTable } from '../../kernel/columns';

/** What a payment needs to know of an item it sells. */
export interface PaymentItem {
  id: string;
  facilityId: string;
  kind: InvoiceableItemKind;
  description: string;
  totalCents: number;
  /** Units in stock (retail items). */
  quantity: number | null;
}

/** A saved method with the processor's token for charging it again. */
export interface SavedPaymentMethod extends PaymentMethod {
  /** Null for methods imported without one. */
  gatewayToken: string | null;
}

/** An Idempotency-Key as recorded. */
export interface IdempotencyRecord {
  requestHash: string;
  /** The payment made under the key, while the transport's answer is not kept. */
  paymentEventId: string | null;
  /** What a transport answered, once it has kept it. */
  answer: string | null;
}

/** The receipt document a payment writes on its event. */
export interface ReceiptDocument {
  id: string;
  description: string;
  type: string;
  createdAt: string;
  /** The filled-in text its PDF prints. */
  body: string;
}

/** Stock a payment took: given back when its charge fails. */
export interface StockHold {
  itemId: string;
  quantity: number;
}

/**
 * A card or ACH payment between its reserve and its record: what the record phase writes once the
 * processor approves, and what a failure gives back. Holds no card or account number.
 */
export type PaymentAttempt = RecordOfTable<typeof paymentAttempts, 'holds' | 'payment'> & {
  holds: StockHold[];
  payment: {
    event: PaymentEvent;
    methodIsNew: boolean;
    receipt: ReceiptDocument;
    events: DomainEvent[];
  };
};

/** The writes of one payment, all inside one transaction. */
export interface PaymentsTransaction {
  /** Forgets the client's expired keys, so an expired key can be used again. */
  forgetExpiredKeys(clientId: string, now: string): Promise<void>;
  /** Records the key unless another request holds it (then false; it waits for that request's end). */
  claimKey(claim: {
    clientId: string;
    key: string;
    requestHash: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<boolean>;
  /** Names the payment the key recorded and, when the transport gave one, the answer to replay. */
  recordKeyPayment(
    clientId: string,
    key: string,
    paymentEventId: string,
    answer: string | null,
  ): Promise<void>;
  /**
   * Takes `quantity` of a retail item's stock if that many are left besides what attempts hold;
   * false (nothing changed) otherwise.
   */
  reserveStock(itemId: string, quantity: number): Promise<boolean>;
  /** Takes the stock an attempt held, in its record (before its hold is released). */
  takeHeldStock(itemId: string, quantity: number): Promise<boolean>;
  /** What is left of an item: its stock less what payments under way hold. */
  stockOf(itemId: string): Promise<number>;
  /** The event, its method when new, the payment and its lines, the receipt, and the webhook events reporting it. */
  insertPayment(
    payment: PaymentEvent,
    options: { methodIsNew: boolean; receipt: ReceiptDocument; events?: readonly DomainEvent[] },
  ): Promise<void>;
  /**
   * Holds `quantity` of a retail item for an attempt if that many are left once other attempts'
   * holds are counted; false (nothing changed) otherwise. The item's quantity is not changed.
   */
  holdStock(attemptId: string, itemId: string, quantity: number): Promise<boolean>;
  /** Gives back what an attempt holds (its charge failed, or its stock was just taken). */
  releaseHolds(attemptId: string): Promise<void>;
  /** Forgets a key whose payment failed, so it can be used again. */
  forgetKey(clientId: string, key: string): Promise<void>;
  insertAttempt(attempt: PaymentAttempt): Promise<void>;
  /** Removes the attempt; false when it was already gone (another settled it). */
  deleteAttempt(id: string): Promise<boolean>;
  /** What the processor answered: its charge id, and its token when a new method was saved. */
  recordCharge(
    paymentId: string,
    gatewayReference: string,
    saved: { methodId: string; token: string } | null,
  ): Promise<void>;
}

/** Where payments, what they sell and their Idempotency-Keys are kept. */
export interface PaymentsRepository {
  /** The facility's items by id, in key order, null for a missing id or another facility's item. */
  facilityItemsByIds(facilityId: string, ids: readonly string[]): Promise<(PaymentItem | null)[]>;
  /** A reuseable method saved at the facility. */
  findSavedMethod(facilityId: string, id: string): Promise<SavedPaymentMethod | undefined>;
  /** Runs `work` in one transaction: everything it wrote is kept if it returns, nothing if it throws. */
  transaction<T>(work: (tx: PaymentsTransaction) => Promise<T>): Promise<T>;
  /** Payments by id (their event's), in key order, null for a missing id. */
  paymentsByIds(ids: readonly string[]): Promise<(PaymentEvent | null)[]>;
  /** The key's record, unless it has expired by `now`. */
  findLiveKey(clientId: string, key: string, now: string): Promise<IdempotencyRecord | undefined>;
  /** Forgets every client's expired keys; answers how many went. */
  deleteExpiredKeys(now: string): Promise<number>;
  /** The attempt that claimed the key, while it is neither recorded nor released. */
  findAttemptByKey(clientId: string, key: string): Promise<PaymentAttempt | undefined>;
  /** Attempts whose lease has passed by `now`: in doubt. */
  attemptsInDoubt(now: string): Promise<PaymentAttempt[]>;
  /**
   * Takes an attempt in doubt for settling: extends its lease to `leaseUntil` if it had passed by
   * `now`; false when it had not (its request or another settler has it) or it is gone.
   */
  takeAttempt(id: string, now: string, leaseUntil: string): Promise<boolean>;
}

/** The events a payment reports (built by `payments.events.ts`), and the announcement after commit. */
export interface PaymentsEventBuilders {
  paymentSucceeded(facility: Facility, payment: PaymentEvent): DomainEvent;
}
export type PaymentsEvents = PaymentsEventBuilders & { announce(): void };

/** What the other areas read of the payments (`PaymentsService` implements it). */
export interface PaymentReads {
  /** Payment events by id, in key order, null for a missing one (DataLoader batch shape). */
  paymentsByIds(ids: readonly string[]): Promise<(PaymentEvent | null)[]>;
}
