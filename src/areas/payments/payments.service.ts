import type { Clock } from '../../kernel/clock';
import type { Caller } from '../../kernel/caller';
import { DomainError, problem, type Path } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { newId, storedKeys } from '../../kernel/ids';
import { localDate, toStoredInstant } from '../../kernel/time';
import type { TenantsRepository } from '../tenants/tenants.ports';
import { formatExpiry, isExpired, parseExpiry } from './cards';
import {
  PaymentGatewayError,
  type ChargeResult,
  type ChargeSource,
  type LookupResult,
  type PaymentGateway,
} from './gateway';
import { IDEMPOTENCY_TTL_MS, isComparableFingerprint, requestFingerprint } from './idempotency';
import type {
  IdempotencyRecord,
  PaymentAttempt,
  PaymentItem,
  PaymentsRepository,
  PaymentsTransaction,
  SavedPaymentMethod,
  PaymentsEvents,
  PaymentReads,
} from './payments.ports';
import {
  GATEWAY_KINDS,
  type NewMethodInput,
  type PayRetailCommand,
  type PaymentEvent,
  type PaymentMethod,
  type ValidRetailPayment,
} from './payments.types';
import { validateRetailPayment, withArticle } from './payments.validation';
import { receiptTemplate } from './receipt';

/** An Idempotency-Key as a transport passes it on. */
export interface PaymentIdempotency {
  key: string;
  /** Keeps REST and GraphQL keys apart: each keeps its own answers. */
  scope: 'rest' | 'graphql';
  /**
   * What the transport answers for the payment, kept with the key in the payment's own
   * transaction, so every replay (even one racing the first request) answers exactly these bytes.
   * Without it the key keeps the payment's id and a replay answers the payment anew.
   */
  answer?: (event: PaymentEvent) => string;
}

/**
 * A payment made now, or one made earlier under the same Idempotency-Key: then its event's id
 * and what the transport answered then, if it kept its answer.
 */
export type PaymentOutcome =
  | { replayed: false; event: PaymentEvent }
  | { replayed: true; paymentEventId: string | null; answer: string | null };

/** Thrown inside the transaction when a concurrent request with the same key committed first. */
class KeyTaken extends Error {}

/** What an attempt's lease allows beyond twice the gateway's deadline before it is in doubt. */
const LEASE_MARGIN_MS = 5000;

/**
 * How soon a request waiting on another under the same key looks again: first soon, then less and
 * less often, so that many retries of one key cannot keep the store busy for everyone.
 */
const WAIT_FIRST_STEP_MS = 25;
const WAIT_LONGEST_STEP_MS = 500;

/** The kind of payment each new source is. */
const SOURCE_KINDS = { card: 'credit_card', swipe: 'card_swipe', ach: 'ach' } as const;

/**
 * The currency a facility takes payments in (ISO 4217). Facilities carry no currency of their
 * own: every one charges in US dollars, as the contract's amounts are.
 */
export function facilityCurrency(_facility: Facility): string {
  return 'USD';
}

const METHOD: Path = ['paymentMethod'];

/** What the checks found: the lines priced, the method to use, and who pays. */
interface PreparedPayment {
  tenantId: string | null;
  lines: Array<{ item: PaymentItem; quantity: number; index: number }>;
  amountCents: number;
  changeDueCents: number;
  tenderedCents: number | null;
  /** Check or money order number, for the receipt. */
  tenderDetail: string | null;
  method: { saved: SavedPaymentMethod } | { fresh: NewMethodInput };
}

export class PaymentsService implements PaymentReads {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly people: TenantsRepository,
    private readonly clock: Clock,
    readonly gateway: PaymentGateway,
    /** Writes `payment.succeeded` with each payment; none when absent. */
    private readonly events?: PaymentsEvents,
    /**
     * Tests only (FACILITY_OPS_TEST_HOLD_BEFORE_RECORD): runs between an approved charge and its
     * record, so a test can stop the process there. Never set in production.
     */
    private readonly beforeRecord?: (paymentId: string) => Promise<void>,
  ) {}

  /**
   * Forgets the Idempotency-Keys of every client that have expired (a client's own are also
   * forgotten when it next pays); answers how many went.
   */
  purgeExpiredIdempotencyKeys(): Promise<number> {
    return this.repository.deleteExpiredKeys(toStoredInstant(this.clock.now()));
  }

  /**
   * Pays for retail items (contract 4.11, DESIGN 6). Every field is checked first (400/4, 404/9,
   * 400/7, 400/3 for short tenders). A tender taken at the counter (cash, check, money order) is
   * written in one transaction: the Idempotency-Key, the stock, the event, payment, lines, method
   * and receipt. A card or ACH payment is made in phases (docs/payments.md#phases), so no
   * transaction is open while the processor answers:
   *
   * 1. reserve: one short transaction claims the key, holds the stock and writes the attempt;
   * 2. charge: the processor is called with nothing open, under the payment's id as its
   *    idempotency key;
   * 3. record: one transaction writes the payment and takes the held stock; a decline or a failed
   *    charge instead gives the hold and the key back (and voids, when the outcome is unknown).
   *
   * If the process stops between 1 and 3 the attempt stays; once its lease has passed it is in
   * doubt, and a retry under its key, the sweeper or the next start asks the processor what was
   * charged and records or voids it. A retry never charges twice.
   */
  async payRetail(
    facility: Facility,
    caller: Caller,
    command: PayRetailCommand,
    options: { idempotency?: PaymentIdempotency } = {},
  ): Promise<PaymentOutcome> {
    const now = this.clock.now();
    const nowStored = toStoredInstant(now);
    const idempotency = options.idempotency;
    const storedKey = idempotency ? `${idempotency.scope}:${idempotency.key}` : null;
    const fingerprint = requestFingerprint('retail_payment', facility.id, command);
    if (idempotency && storedKey) {
      const earlier = await this.settledKey(caller.clientId, storedKey, idempotency);
      if (earlier) return this.replay(earlier, fingerprint);
    }

    const valid = validateRetailPayment(command, localDate(now, facility.timeZone));
    const prepared = await this.prepare(facility, valid, localDate(now, facility.timeZone));
    const source = this.chargeSource(prepared);
    if (source) this.checkProcessorTakes(source);

    const event = this.eventFor(facility, prepared, newId(), nowStored);
    const payment: PaymentAttempt['payment'] = {
      event,
      methodIsNew: 'fresh' in prepared.method,
      events: this.events ? [this.events.paymentSucceeded(facility, event)] : [],
      receipt: {
        id: newId(),
        description: 'Receipt',
        type: 'PrintTemplate',
        createdAt: nowStored,
        body: receiptTemplate(event, {
          tenderedCents: prepared.tenderedCents,
          detail: prepared.tenderDetail,
        }),
      },
    };
    const claim = async (tx: PaymentsTransaction) => {
      if (!idempotency || !storedKey) return;
      await tx.forgetExpiredKeys(caller.clientId, nowStored);
      const claimed = await tx.claimKey({
        clientId: caller.clientId,
        key: storedKey,
        requestHash: fingerprint,
        createdAt: nowStored,
        expiresAt: toStoredInstant(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
      });
      if (!claimed) throw new KeyTaken();
    };
    // Item order, so concurrent payments for several items lock rows in one order.
    const byId = [...prepared.lines].sort((a, b) => (a.item.id < b.item.id ? -1 : 1));
    const notEnough = async (tx: PaymentsTransaction, line: (typeof byId)[number]) => {
      const left = await tx.stockOf(line.item.id);
      return DomainError.actionFailed(
        ['invoiceableItems', line.index, 'quantity'],
        `not enough stock: ${line.quantity} asked, ${left} left`,
      );
    };

    try {
      if (!source) {
        const outcome = await this.repository.transaction(async (tx) => {
          await claim(tx);
          for (const line of byId) {
            if (!(await tx.reserveStock(line.item.id, line.quantity))) throw await notEnough(tx, line);
          }
          await tx.insertPayment(event, payment);
          if (idempotency && storedKey) {
            await tx.recordKeyPayment(
              caller.clientId,
              storedKey,
              event.id,
              idempotency.answer?.(event) ?? null,
            );
          }
          return { replayed: false as const, event };
        });
        this.events?.announce();
        return outcome;
      }

      // 1. Reserve.
      const attempt: PaymentAttempt = {
        id: event.id,
        clientId: caller.clientId,
        idempotencyKey: storedKey,
        facilityId: facility.id,
        processor: this.gateway.name,
        holds: byId.map((line) => ({ itemId: line.item.id, quantity: line.quantity })),
        payment,
        createdAt: nowStored,
        leaseUntil: toStoredInstant(new Date(now.getTime() + this.leaseMs())),
      };
      await this.repository.transaction(async (tx) => {
        await claim(tx);
        for (const line of byId) {
          if (!(await tx.holdStock(event.id, line.item.id, line.quantity))) throw await notEnough(tx, line);
        }
        await tx.insertAttempt(attempt);
      });
    } catch (error) {
      if (error instanceof KeyTaken && idempotency && storedKey) {
        const earlier = await this.settledKey(caller.clientId, storedKey, idempotency);
        if (earlier) return this.replay(earlier, fingerprint);
        throw new DomainError('action_failed', 'another request with this Idempotency-Key failed; retry');
      }
      throw error;
    }

    // 2. Charge, with no transaction open.
    let result: Extract<ChargeResult, { approved: true }>;
    try {
      result = await this.charge(
        event.id,
        event.amountCents,
        facility,
        source,
        event.paymentMethod.reuseable,
      );
    } catch (error) {
      // A decline, or a failure whose void went through: nothing was charged. Anything else (the
      // void failed too) leaves the attempt in doubt, for the sweeper to settle.
      if (error instanceof DomainError) {
        await this.release(event.id, storedKey ? { clientId: caller.clientId, key: storedKey } : null);
      }
      throw error;
    }

    // 3. Record.
    await this.beforeRecord?.(event.id);
    let recorded: boolean;
    try {
      recorded = await this.record(
        { id: event.id, payment, holds: byId.map((l) => ({ itemId: l.item.id, quantity: l.quantity })) },
        result,
        storedKey ? { clientId: caller.clientId, key: storedKey, answer: idempotency?.answer } : null,
      );
    } catch (error) {
      await this.voidAfterFailure(event.id, error);
      await this.release(event.id, storedKey ? { clientId: caller.clientId, key: storedKey } : null);
      throw error;
    }
    if (!recorded) {
      // This request outlived its lease and another process settled the payment meanwhile: it
      // recorded the charge (then it is answered) or voided it. Nothing is voided here.
      const [kept] = await this.repository.paymentsByIds([event.id]);
      if (kept) return { replayed: false, event: kept };
      throw DomainError.actionFailed(
        METHOD,
        'the payment took too long and was voided; nothing was charged, try again',
      );
    }
    this.events?.announce();
    return { replayed: false, event };
  }

  /**
   * Settles the payments in doubt: attempts whose lease has passed (their process stopped between
   * the charge and its record). Each is looked up at the processor and recorded if charged, or
   * voided and given back if not. Run at start and by the sweeper; answers how many it settled.
   */
  async settleInDoubt(): Promise<number> {
    const due = await this.repository.attemptsInDoubt(toStoredInstant(this.clock.now()));
    let settled = 0;
    for (const attempt of due) {
      if (await this.settle(attempt)) settled++;
    }
    return settled;
  }

  /** How long an attempt's request may take before it counts as in doubt. */
  private leaseMs(): number {
    return 2 * this.gateway.deadlineMs + LEASE_MARGIN_MS;
  }

  /**
   * The key's record once its payment is settled, or undefined when the key is free (never used,
   * or its payment failed and gave it back). While another request's payment under the key is
   * under way, waits for it; when that one is in doubt, settles it here.
   */
  private async settledKey(
    clientId: string,
    key: string,
    idempotency: PaymentIdempotency,
  ): Promise<IdempotencyRecord | undefined> {
    const giveUpAt = Date.now() + this.leaseMs() + LEASE_MARGIN_MS;
    let step = WAIT_FIRST_STEP_MS;
    for (;;) {
      const now = toStoredInstant(this.clock.now());
      const record = await this.repository.findLiveKey(clientId, key, now);
      if (!record || record.paymentEventId !== null || record.answer !== null) return record;
      const attempt = await this.repository.findAttemptByKey(clientId, key);
      // A key with neither payment nor attempt: a transaction that claimed it is just ending.
      if (attempt && attempt.leaseUntil <= now) {
        await this.settle(attempt, idempotency.answer);
        continue;
      }
      if (Date.now() > giveUpAt) {
        throw new DomainError(
          'action_failed',
          'a payment under this Idempotency-Key is still under way; retry',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, step));
      step = Math.min(step * 2, WAIT_LONGEST_STEP_MS);
    }
  }

  /**
   * Settles one attempt in doubt, unless another process is settling it: asks the processor what
   * was charged under its id, then records it or voids it and gives back its hold and key.
   */
  private async settle(attempt: PaymentAttempt, answer?: (event: PaymentEvent) => string): Promise<boolean> {
    const now = this.clock.now();
    const taken = await this.repository.takeAttempt(
      attempt.id,
      toStoredInstant(now),
      toStoredInstant(new Date(now.getTime() + this.leaseMs())),
    );
    if (!taken) return false;
    const key = attempt.idempotencyKey ? { clientId: attempt.clientId, key: attempt.idempotencyKey } : null;
    let found: LookupResult;
    try {
      found = this.gateway.lookup ? await this.gateway.lookup(attempt.id) : { charged: false };
      if (!found.charged) await this.gateway.void(attempt.id);
    } catch {
      // The processor cannot tell now: the attempt stays in doubt and is asked again later.
      return false;
    }
    if (found.charged) {
      await this.record(attempt, { approved: true, ...found }, key && { ...key, answer });
      this.events?.announce();
    } else {
      await this.release(attempt.id, key);
    }
    return true;
  }

  /**
   * The record phase: writes the payment, takes its held stock, records the processor's answer and
   * the key's; false when the attempt was already gone (another process settled it).
   */
  private async record(
    attempt: Pick<PaymentAttempt, 'id' | 'payment' | 'holds'>,
    result: Extract<ChargeResult, { approved: true }>,
    key: { clientId: string; key: string; answer?: (event: PaymentEvent) => string } | null,
  ): Promise<boolean> {
    const { event } = attempt.payment;
    return this.repository.transaction(async (tx) => {
      if (!(await tx.deleteAttempt(attempt.id))) return false;
      for (const hold of attempt.holds) {
        // The hold keeps the stock for this payment, so taking it cannot fail.
        if (!(await tx.takeHeldStock(hold.itemId, hold.quantity))) {
          throw new Error(`payment ${attempt.id}: its held stock of item ${hold.itemId} is gone`);
        }
      }
      await tx.releaseHolds(attempt.id);
      await tx.insertPayment(event, attempt.payment);
      const savedToken =
        attempt.payment.methodIsNew && result.token && event.paymentMethod.reuseable
          ? { methodId: event.paymentMethod.id, token: result.token }
          : null;
      await tx.recordCharge(event.id, result.gatewayReference, savedToken);
      if (key) await tx.recordKeyPayment(key.clientId, key.key, event.id, key.answer?.(event) ?? null);
      return true;
    });
  }

  /** Gives back what a failed attempt held, and its key, so a retry can pay again. */
  private async release(attemptId: string, key: { clientId: string; key: string } | null): Promise<void> {
    await this.repository.transaction(async (tx) => {
      if (!(await tx.deleteAttempt(attemptId))) return;
      await tx.releaseHolds(attemptId);
      if (key) await tx.forgetKey(key.clientId, key.key);
    });
  }

  /** A kind the processor cannot take is refused before anything is written (400/4). */
  private checkProcessorTakes(source: ChargeSource): void {
    const kind = source.type === 'saved' ? source.kind : SOURCE_KINDS[source.type];
    const why = this.gateway.refusedKinds?.get(kind);
    if (why === undefined) return;
    const at: Path = source.type === 'saved' ? [...METHOD, 'paymentMethodId'] : [...METHOD, 'kind'];
    throw DomainError.invalidParameter(at, `is ${withArticle(kind)} payment; ${why}`);
  }

  /** Payment events by id, in key order, null for a missing id (DataLoader batch shape). */
  paymentsByIds(ids: readonly string[]): Promise<(PaymentEvent | null)[]> {
    return this.repository.paymentsByIds(storedKeys(ids));
  }

  private replay(
    earlier: { requestHash: string; paymentEventId: string | null; answer: string | null },
    fingerprint: string,
  ): PaymentOutcome {
    // A fingerprint made before card data was left out of it was cleared (it held the whole card):
    // the key alone decides, so a retry is answered as before and never charged twice.
    if (isComparableFingerprint(earlier.requestHash) && earlier.requestHash !== fingerprint) {
      throw new DomainError(
        'conflicting_parameters',
        [['idempotencyKey'], ' was used before with a different request; use a new key for a new payment'],
        { problems: [problem(['idempotencyKey'], 'was used before with a different request')] },
      );
    }
    return { replayed: true, paymentEventId: earlier.paymentEventId, answer: earlier.answer };
  }

  /** Looks up what the command names and checks what depends on the charge. */
  private async prepare(
    facility: Facility,
    valid: ValidRetailPayment,
    today: string,
  ): Promise<PreparedPayment> {
    const items = await this.repository.facilityItemsByIds(
      facility.id,
      valid.lines.map((line) => line.itemId),
    );
    const problems: ReturnType<typeof problem>[] = [];
    const lines: PreparedPayment['lines'] = [];
    valid.lines.forEach((line, i) => {
      const item = items[i];
      const at: Path = ['invoiceableItems', line.index, 'invoiceableItemId'];
      if (!item) problems.push(problem(at, 'names no item of this facility'));
      else if (item.kind !== 'retail') {
        problems.push(
          problem(at, `is ${withArticle(item.kind)} item; only retail items can be paid for here`),
        );
      } else lines.push({ item, quantity: line.quantity, index: line.index });
    });
    if (problems.length > 0) throw DomainError.invalid(problems);

    let tenantId = valid.tenantId;
    if (tenantId !== null && !(await this.people.tenantInFacility(facility.id, tenantId))) {
      throw DomainError.notFound(['tenantId'], 'tenant', tenantId);
    }

    let method: PreparedPayment['method'];
    let tenantPath: Path = ['tenantId'];
    if (valid.method.saved) {
      const saved = await this.savedMethod(facility, valid.method.id, tenantId, today);
      // A saved method of a tenant pays as that tenant, so the facility's rule applies to it too.
      if (tenantId === null && saved.tenantId !== null) {
        tenantId = saved.tenantId;
        tenantPath = [...METHOD, 'paymentMethodId'];
      }
      method = { saved };
    } else {
      method = { fresh: valid.method };
    }
    if (tenantId !== null && facility.tenantPaymentsDisabled) {
      throw new DomainError(
        'disabled_for_tenants',
        'this facility does not take payments from tenants through the API',
        { problems: [problem(tenantPath, 'names a tenant; tenant payments are disabled here')] },
      );
    }

    const amountCents = lines.reduce((sum, line) => sum + line.quantity * line.item.totalCents, 0);
    if (amountCents <= 0) {
      throw DomainError.invalidParameter(['invoiceableItems'], 'come to 0.00: nothing to pay');
    }
    const tender = 'fresh' in method ? this.checkTender(method.fresh, amountCents) : null;
    return {
      tenantId,
      lines,
      amountCents,
      changeDueCents: tender?.changeDueCents ?? 0,
      tenderedCents: tender?.tenderedCents ?? null,
      tenderDetail: tender?.detail ?? null,
      method,
    };
  }

  private async savedMethod(
    facility: Facility,
    id: string,
    tenantId: string | null,
    today: string,
  ): Promise<SavedPaymentMethod> {
    const parameter: Path = [...METHOD, 'paymentMethodId'];
    const saved = await this.repository.findSavedMethod(facility.id, id);
    if (!saved)
      throw DomainError.invalidParameter(parameter, 'names no saved payment method of this facility');
    if (tenantId !== null && saved.tenantId !== tenantId) {
      throw DomainError.invalidParameter(parameter, ['is not a saved payment method of ', ['tenantId']]);
    }
    if (!GATEWAY_KINDS.has(saved.kind)) {
      throw DomainError.invalidParameter(
        parameter,
        `is ${withArticle(saved.kind)} method; only card and bank account methods can be charged again`,
      );
    }
    const expiry = saved.expirationDate ? parseExpiry(saved.expirationDate) : null;
    if (expiry && isExpired(expiry, today)) {
      throw DomainError.invalidParameter(parameter, `is a card that expired ${formatExpiry(expiry)}`);
    }
    return saved;
  }

  /** Cash must cover the charge (the rest is change); a check or money order must equal it. */
  private checkTender(
    method: NewMethodInput,
    amountCents: number,
  ): { tenderedCents: number | null; changeDueCents: number; detail: string | null } | null {
    const details = method.details;
    const charge = (amountCents / 100).toFixed(2);
    switch (details.kind) {
      case 'cash':
        if (details.tenderedCents < amountCents) {
          throw DomainError.actionFailed(
            [...METHOD, 'amountTendered'],
            `not enough tendered: the charge is ${charge}`,
          );
        }
        return {
          tenderedCents: details.tenderedCents,
          changeDueCents: details.tenderedCents - amountCents,
          detail: null,
        };
      case 'check':
      case 'money_order': {
        const parameter: Path = [...METHOD, details.kind === 'check' ? 'checkAmount' : 'moneyOrderAmount'];
        if (details.amountCents < amountCents) {
          throw DomainError.actionFailed(parameter, `not enough tendered: the charge is ${charge}`);
        }
        if (details.amountCents > amountCents) {
          throw DomainError.invalidParameter(
            parameter,
            `must equal the charge of ${charge} (no change is given)`,
          );
        }
        const detail = details.kind === 'check' ? details.checkNumber : details.referenceNumber;
        return { tenderedCents: null, changeDueCents: 0, detail };
      }
      default:
        return null;
    }
  }

  /** The payment event the request records: its method (saved or new), lines and amounts. */
  private eventFor(
    facility: Facility,
    prepared: PreparedPayment,
    paymentId: string,
    now: string,
  ): PaymentEvent {
    let method: PaymentMethod;
    if ('saved' in prepared.method) {
      const { gatewayToken: _token, ...saved } = prepared.method.saved;
      method = saved;
    } else {
      const fresh = prepared.method.fresh;
      const d = fresh.details;
      const card = d.kind === 'credit_card' || d.kind === 'card_swipe' ? d : null;
      // Only what a processor can charge again is saved for reuse; a cash "method" is not.
      const reuseable = fresh.reuseable && GATEWAY_KINDS.has(d.kind);
      method = {
        id: newId(),
        facilityId: facility.id,
        tenantId: prepared.tenantId,
        kind: d.kind,
        firstName: fresh.firstName,
        lastName: fresh.lastName,
        reuseable,
        last4: card ? card.pan.slice(-4) : d.kind === 'ach' ? d.accountNumber.slice(-4) : null,
        cardType: card ? card.brand : null,
        expirationDate: card ? formatExpiry(card.expiry) : null,
        billingAddress: fresh.billingAddress,
        createdAt: now,
      };
    }
    return {
      id: paymentId,
      facilityId: facility.id,
      tenantId: prepared.tenantId,
      amountCents: prepared.amountCents,
      changeDueCents: prepared.changeDueCents,
      success: true,
      paidAt: now,
      paymentMethod: method,
      lines: prepared.lines.map((line) => ({
        id: newId(),
        paymentId,
        invoiceableItemId: line.item.id,
        description: line.item.description,
        quantity: line.quantity,
        unitTotalCents: line.item.totalCents,
        lineTotalCents: line.quantity * line.item.totalCents,
      })),
    };
  }

  /** What the gateway charges; null for tenders taken at the counter (cash, check, money order). */
  private chargeSource(prepared: PreparedPayment): ChargeSource | null {
    if ('saved' in prepared.method) {
      const saved = prepared.method.saved;
      return {
        type: 'saved',
        paymentMethodId: saved.id,
        token: saved.gatewayToken,
        kind: saved.kind as 'credit_card' | 'card_swipe' | 'ach',
        last4: saved.last4,
      };
    }
    const fresh = prepared.method.fresh;
    const holderName = `${fresh.firstName} ${fresh.lastName}`;
    const d = fresh.details;
    switch (d.kind) {
      case 'credit_card':
        return {
          type: 'card',
          pan: d.pan,
          brand: d.brand,
          securityCode: d.securityCode,
          expiry: d.expiry,
          holderName,
          billingPostal: fresh.billingAddress?.postal ?? null,
        };
      case 'card_swipe':
        return { type: 'swipe', pan: d.pan, brand: d.brand, expiry: d.expiry, track: d.track, holderName };
      case 'ach':
        return {
          type: 'ach',
          routingNumber: d.routingNumber,
          accountNumber: d.accountNumber,
          accountType: d.accountType,
          bankName: d.bankName,
          holderName,
        };
      default:
        return null;
    }
  }

  /**
   * Charges through the gateway within its deadline. A decline is 400/3, as is a timeout or outage
   * the processor reports; an answer that cannot be read is 502, none within the processor's own
   * deadline 504. Whenever the outcome is unknown the reference is voided first.
   */
  private async charge(
    reference: string,
    amountCents: number,
    facility: Facility,
    source: ChargeSource,
    saveForReuse: boolean,
  ): Promise<Extract<ChargeResult, { approved: true }>> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new PaymentGatewayError('timeout', `no answer within ${this.gateway.deadlineMs} ms`));
      }, this.gateway.deadlineMs);
    });
    let result: ChargeResult;
    try {
      result = await Promise.race([
        this.gateway.charge({
          reference,
          amountCents,
          currency: facilityCurrency(facility),
          facilityId: facility.id,
          source,
          saveForReuse,
          signal: controller.signal,
        }),
        deadline,
      ]);
    } catch (error) {
      // Without an answer the money may or may not have moved: void by our reference to be sure.
      await this.voidAfterFailure(reference, error);
      if (error instanceof PaymentGatewayError && error.reason === 'bad_answer') {
        throw new DomainError(
          'upstream_unavailable',
          `the payment processor (${this.gateway.name}) gave no answer that could be read; nothing was charged, try again`,
        );
      }
      if (error instanceof PaymentGatewayError && error.reason === 'no_answer') {
        throw new DomainError(
          'upstream_timeout',
          `the payment processor (${this.gateway.name}) did not answer in time; nothing was charged, try again`,
        );
      }
      if (error instanceof PaymentGatewayError) {
        const what = error.reason === 'timeout' ? 'did not answer in time' : 'is unavailable';
        throw DomainError.actionFailed(METHOD, `the payment gateway ${what}; nothing was charged, try again`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (!result.approved) throw DomainError.actionFailed(METHOD, result.message);
    return result;
  }

  /** Takes back a charge whose record was not committed; if even that fails, the cause says so. */
  private async voidAfterFailure(reference: string, cause: unknown): Promise<void> {
    try {
      await this.gateway.void(reference);
    } catch (voidError) {
      throw new Error(`payment ${reference}: void failed after an unrecorded charge; reconcile by hand`, {
        cause: { voidError, cause },
      });
    }
  }
}
