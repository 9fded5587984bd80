import type { Clock } from '../../clock';
import type {
  PaymentItemRow,
  PaymentLineRow,
  PaymentLineWithItemRow,
  PaymentMethodRow,
  PaymentRow,
  PaymentsRepository,
  StoredPayment,
} from '../../store/repositories/payments.repository';
import type { Caller } from '../caller';
import { DomainError, type ParameterProblem } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, newId, normalizeId } from '../shared/ids';
import { localDate, toStoredInstant } from '../shared/time';
import { formatExpiry, isExpired, parseExpiry } from './cards';
import { PaymentGatewayError, type ChargeResult, type ChargeSource, type PaymentGateway } from './gateway';
import { IDEMPOTENCY_TTL_MS, type IdempotencyOptions } from './idempotency';
import {
  GATEWAY_KINDS,
  type BillingAddress,
  type NewMethodInput,
  type PaymentEvent,
  type PaymentLine,
  type PaymentMethod,
  type RetailPaymentInput,
  type ValidRetailPayment,
} from './payments.types';
import { validateRetailPayment, withArticle } from './payments.validation';
import { receiptTemplate } from './receipt';
import type { TenantsRepository } from '../../store/repositories/tenants.repository';

function parseBillingAddress(stored: string | null): BillingAddress | null {
  if (stored === null) return null;
  const value: unknown = JSON.parse(stored);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const address: BillingAddress = {};
  for (const [key, inner] of Object.entries(value)) {
    address[key] = inner === null || inner === undefined ? null : String(inner);
  }
  return address;
}

export function paymentMethodRowToPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    facilityId: row.facility_id,
    tenantId: row.tenant_id,
    kind: row.kind,
    firstName: row.first_name,
    lastName: row.last_name,
    reuseable: row.reuseable === 1,
    last4: row.card_last4,
    cardType: row.card_type,
    expirationDate: row.expiration_date,
    billingAddress: parseBillingAddress(row.billing_address),
    createdAt: row.created_at,
  };
}

function lineRowToLine(row: PaymentLineWithItemRow): PaymentLine {
  return {
    id: row.id,
    paymentId: row.payment_id,
    invoiceableItemId: row.invoiceable_item_id,
    description: row.description,
    quantity: row.quantity,
    unitTotalCents: row.unit_total_cents,
    lineTotalCents: row.line_total_cents,
  };
}

export function storedPaymentToPaymentEvent(stored: StoredPayment): PaymentEvent {
  const { payment } = stored;
  return {
    id: payment.id,
    facilityId: payment.facility_id,
    tenantId: payment.tenant_id,
    amountCents: payment.amount_cents,
    changeDueCents: payment.change_due_cents,
    success: payment.success === 1,
    paidAt: payment.paid_at,
    paymentMethod: paymentMethodRowToPaymentMethod(stored.method),
    lines: stored.lines.map(lineRowToLine),
  };
}

/** Idempotency as a transport asks for it, with how it writes down its answer for replays. */
export interface PaymentIdempotency extends IdempotencyOptions {
  /** The answer to keep for replays (REST: the response body), made inside the transaction. */
  render(event: PaymentEvent): string;
}

export type PaymentOutcome =
  | { replayed: false; event: PaymentEvent; answer: string | null }
  | { replayed: true; status: number; answer: string };

/** Thrown inside the transaction when a concurrent request with the same key committed first. */
class KeyTaken extends Error {}

function actionFailed(parameter: string, message: string): DomainError {
  return new DomainError('action_failed', `${parameter}: ${message}`, { problems: [{ parameter, message }] });
}

/** What the checks found: the lines priced, the method to use, and who pays. */
interface PreparedPayment {
  tenantId: string | null;
  lines: Array<{ item: PaymentItemRow; quantity: number; index: number }>;
  amountCents: number;
  changeDueCents: number;
  tenderedCents: number | null;
  /** Check or money order number, for the receipt. */
  tenderDetail: string | null;
  method: { saved: PaymentMethodRow } | { fresh: NewMethodInput };
}

export class PaymentsService {
  constructor(
    private readonly repository: PaymentsRepository,
    private readonly people: TenantsRepository,
    private readonly clock: Clock,
    readonly gateway: PaymentGateway,
  ) {}

  /**
   * Forgets the Idempotency-Keys of every client that have expired (a client's own are also
   * forgotten when it next pays); answers how many went.
   */
  purgeExpiredIdempotencyKeys(): Promise<number> {
    return this.repository.idempotency.deleteAllExpired(toStoredInstant(this.clock.now()));
  }

  /**
   * Pays for retail items (contract 4.11, DESIGN 6). Every field is checked first (400/4, 404/9,
   * 400/7, 400/3 for short tenders); then one transaction claims the Idempotency-Key, takes the
   * stock, writes the event, payment, lines, method and receipt, and charges the gateway last.
   *
   * Why the charge is inside the transaction: the database can refuse (stock gone, a constraint)
   * before any money moves, and a decline, timeout or outage throws, which rolls everything back,
   * so no record of a failed charge is kept. If the commit itself fails after an approval, the
   * charge is voided, so no money is kept without a committed record. The price is a transaction
   * held open while the gateway answers, bounded by its deadline.
   */
  async payRetail(
    facility: Facility,
    caller: Caller,
    input: RetailPaymentInput,
    options: { idempotency?: PaymentIdempotency } = {},
  ): Promise<PaymentOutcome> {
    const now = this.clock.now();
    const nowStored = toStoredInstant(now);
    const idempotency = options.idempotency;
    const storedKey = idempotency ? `${idempotency.scope}:${idempotency.key}` : '';
    if (idempotency) {
      const earlier = await this.repository.idempotency.findLive(caller.clientId, storedKey, nowStored);
      if (earlier) return this.replay(earlier, idempotency);
    }

    const valid = validateRetailPayment(input, localDate(now, facility.timeZone));
    const prepared = await this.prepare(facility, valid, localDate(now, facility.timeZone));

    const paymentId = newId();
    const rows = this.rowsFor(facility, prepared, paymentId, nowStored);
    const event = this.eventOf(rows.payment, rows.methodRow, rows.lines, prepared);
    const charge = { approved: false };
    try {
      return await this.repository.transaction(async (tx) => {
        if (idempotency) {
          await tx.idempotency.deleteExpired(caller.clientId, nowStored);
          const claimed = await tx.idempotency.claim({
            client_id: caller.clientId,
            key: storedKey,
            request_hash: idempotency.fingerprint,
            response_status: 0,
            response_body: '',
            created_at: nowStored,
            expires_at: toStoredInstant(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
          });
          if (!claimed) throw new KeyTaken();
        }
        // Item order, so concurrent payments for several items lock rows in one order.
        const byId = [...prepared.lines].sort((a, b) => (a.item.id < b.item.id ? -1 : 1));
        for (const line of byId) {
          if (!(await tx.reserveStock(line.item.id, line.quantity))) {
            const left = await tx.stockOf(line.item.id);
            throw actionFailed(
              `retail_payment.invoiceable_items[${line.index}].quantity`,
              `not enough stock: ${line.quantity} asked, ${left} left`,
            );
          }
        }
        await tx.insertPayment({
          event: {
            id: paymentId,
            facility_id: facility.id,
            type: 'successful_payment_event',
            ledger_id: null,
            created_at: nowStored,
          },
          method: 'fresh' in prepared.method ? rows.methodRow : null,
          payment: rows.payment,
          lines: rows.lines,
          receipt: {
            id: newId(),
            event_id: paymentId,
            description: 'Receipt',
            type: 'PrintTemplate',
            is_relevant: 1,
            esignable: 0,
            created_at: nowStored,
            body: receiptTemplate(event, {
              tenderedCents: prepared.tenderedCents,
              detail: prepared.tenderDetail,
            }),
          },
        });

        const source = this.chargeSource(prepared);
        if (source) {
          const result = await this.charge(
            paymentId,
            event.amountCents,
            source,
            rows.methodRow.reuseable === 1,
          );
          charge.approved = true;
          const savedToken =
            'fresh' in prepared.method && result.token && rows.methodRow.reuseable === 1
              ? { methodId: rows.methodRow.id, token: result.token }
              : null;
          await tx.recordCharge(paymentId, result.gatewayReference, savedToken);
        }
        let answer: string | null = null;
        if (idempotency) {
          answer = idempotency.render(event);
          await tx.idempotency.storeAnswer(caller.clientId, storedKey, 200, answer);
        }
        return { replayed: false as const, event, answer };
      });
    } catch (error) {
      if (charge.approved) await this.voidAfterFailure(paymentId, error);
      if (error instanceof KeyTaken && idempotency) {
        const earlier = await this.repository.idempotency.findLive(caller.clientId, storedKey, nowStored);
        if (earlier) return this.replay(earlier, idempotency);
        throw new DomainError('action_failed', 'another request with this Idempotency-Key failed; retry');
      }
      throw error;
    }
  }

  /** Payment events by id, in key order, null for a missing id (DataLoader batch shape). */
  async paymentsByIds(ids: readonly string[]): Promise<(PaymentEvent | null)[]> {
    const stored = await this.repository.paymentsByIds(ids.map((id) => (isUuid(id) ? normalizeId(id) : '')));
    return stored.map((s) => (s ? storedPaymentToPaymentEvent(s) : null));
  }

  private replay(
    earlier: { request_hash: string; response_status: number; response_body: string },
    idempotency: PaymentIdempotency,
  ): PaymentOutcome {
    if (earlier.request_hash !== idempotency.fingerprint) {
      throw new DomainError(
        'conflicting_parameters',
        'Idempotency-Key was used before with a different request; use a new key for a new payment',
        { problems: [{ parameter: 'Idempotency-Key', message: 'was used before with a different request' }] },
      );
    }
    return { replayed: true, status: earlier.response_status, answer: earlier.response_body };
  }

  /** Looks up what the body names and checks what depends on the charge. */
  private async prepare(
    facility: Facility,
    valid: ValidRetailPayment,
    today: string,
  ): Promise<PreparedPayment> {
    const items = await this.repository.facilityItemsByIds(
      facility.id,
      valid.lines.map((line) => line.itemId),
    );
    const problems: ParameterProblem[] = [];
    const lines: PreparedPayment['lines'] = [];
    valid.lines.forEach((line, i) => {
      const item = items[i];
      const parameter = `retail_payment.invoiceable_items[${line.index}].invoiceable_item_id`;
      if (!item) problems.push({ parameter, message: 'names no item of this facility' });
      else if (item.kind !== 'retail') {
        problems.push({
          parameter,
          message: `is ${withArticle(item.kind)} item; only retail items can be paid for here`,
        });
      } else lines.push({ item, quantity: line.quantity, index: line.index });
    });
    if (problems.length > 0) throw DomainError.invalid(problems);

    let tenantId = valid.tenantId;
    if (tenantId !== null && !(await this.people.tenantInFacility(facility.id, tenantId))) {
      throw DomainError.notFound('retail_payment.tenant_id', 'tenant', tenantId);
    }

    let method: PreparedPayment['method'];
    let tenantParameter = 'retail_payment.tenant_id';
    if (valid.method.saved) {
      const saved = await this.savedMethod(facility, valid.method.id, tenantId, today);
      // A saved method of a tenant pays as that tenant, so the facility's rule applies to it too.
      if (tenantId === null && saved.tenant_id !== null) {
        tenantId = saved.tenant_id;
        tenantParameter = 'payment_method.payment_method_id';
      }
      method = { saved };
    } else {
      method = { fresh: valid.method };
    }
    if (tenantId !== null && facility.tenantPaymentsDisabled) {
      throw new DomainError(
        'disabled_for_tenants',
        'this facility does not take payments from tenants through the API',
        {
          problems: [
            { parameter: tenantParameter, message: 'names a tenant; tenant payments are disabled here' },
          ],
        },
      );
    }

    const amountCents = lines.reduce((sum, line) => sum + line.quantity * line.item.total_cents, 0);
    if (amountCents <= 0) {
      throw DomainError.invalidParameter('retail_payment.invoiceable_items', 'come to 0.00: nothing to pay');
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
  ): Promise<PaymentMethodRow> {
    const parameter = 'payment_method.payment_method_id';
    const saved = await this.repository.findSavedMethod(facility.id, id);
    if (!saved)
      throw DomainError.invalidParameter(parameter, 'names no saved payment method of this facility');
    if (tenantId !== null && saved.tenant_id !== tenantId) {
      throw DomainError.invalidParameter(
        parameter,
        'is not a saved payment method of retail_payment.tenant_id',
      );
    }
    if (!GATEWAY_KINDS.has(saved.kind)) {
      throw DomainError.invalidParameter(
        parameter,
        `is ${withArticle(saved.kind)} method; only card and bank account methods can be charged again`,
      );
    }
    const expiry = saved.expiration_date ? parseExpiry(saved.expiration_date) : null;
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
          throw actionFailed(
            'payment_method.amount_tendered',
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
        const parameter =
          details.kind === 'check' ? 'payment_method.check_amount' : 'payment_method.money_order_amount';
        if (details.amountCents < amountCents) {
          throw actionFailed(parameter, `not enough tendered: the charge is ${charge}`);
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

  private rowsFor(
    facility: Facility,
    prepared: PreparedPayment,
    paymentId: string,
    now: string,
  ): { methodRow: PaymentMethodRow; payment: PaymentRow; lines: PaymentLineRow[] } {
    let methodRow: PaymentMethodRow;
    if ('saved' in prepared.method) {
      methodRow = prepared.method.saved;
    } else {
      const fresh = prepared.method.fresh;
      const d = fresh.details;
      const card = d.kind === 'credit_card' || d.kind === 'card_swipe' ? d : null;
      // Only what a processor can charge again is saved for reuse; a cash "method" is not.
      const reuseable = fresh.reuseable && GATEWAY_KINDS.has(d.kind);
      methodRow = {
        id: newId(),
        facility_id: facility.id,
        tenant_id: prepared.tenantId,
        kind: d.kind,
        first_name: fresh.firstName,
        last_name: fresh.lastName,
        reuseable: reuseable ? 1 : 0,
        card_last4: card ? card.pan.slice(-4) : d.kind === 'ach' ? d.accountNumber.slice(-4) : null,
        card_type: card ? card.brand : null,
        expiration_date: card ? formatExpiry(card.expiry) : null,
        billing_address: fresh.billingAddress ? JSON.stringify(fresh.billingAddress) : null,
        created_at: now,
        gateway_token: null,
      };
    }
    const payment: PaymentRow = {
      id: paymentId,
      facility_id: facility.id,
      tenant_id: prepared.tenantId,
      payment_method_id: methodRow.id,
      amount_cents: prepared.amountCents,
      change_due_cents: prepared.changeDueCents,
      success: 1,
      paid_at: now,
      gateway_reference: null,
    };
    const lines: PaymentLineRow[] = prepared.lines.map((line, position) => ({
      id: newId(),
      payment_id: paymentId,
      invoiceable_item_id: line.item.id,
      quantity: line.quantity,
      unit_total_cents: line.item.total_cents,
      line_total_cents: line.quantity * line.item.total_cents,
      position,
    }));
    return { methodRow, payment, lines };
  }

  private eventOf(
    payment: PaymentRow,
    methodRow: PaymentMethodRow,
    lines: PaymentLineRow[],
    prepared: PreparedPayment,
  ): PaymentEvent {
    return storedPaymentToPaymentEvent({
      payment,
      method: methodRow,
      lines: lines.map((line, i) => ({ ...line, description: prepared.lines[i].item.description })),
    });
  }

  /** What the gateway charges; null for tenders taken at the counter (cash, check, money order). */
  private chargeSource(prepared: PreparedPayment): ChargeSource | null {
    if ('saved' in prepared.method) {
      const saved = prepared.method.saved;
      return {
        type: 'saved',
        paymentMethodId: saved.id,
        token: saved.gateway_token,
        kind: saved.kind as 'credit_card' | 'card_swipe' | 'ach',
        last4: saved.card_last4,
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

  /** Charges through the gateway within its deadline; a decline or no answer is 400/3. */
  private async charge(
    reference: string,
    amountCents: number,
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
          currency: 'USD',
          source,
          saveForReuse,
          signal: controller.signal,
        }),
        deadline,
      ]);
    } catch (error) {
      // Without an answer the money may or may not have moved: void by our reference to be sure.
      await this.voidAfterFailure(reference, error);
      if (error instanceof PaymentGatewayError) {
        const what = error.reason === 'timeout' ? 'did not answer in time' : 'is unavailable';
        throw actionFailed('payment_method', `the payment gateway ${what}; nothing was charged, try again`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (!result.approved) throw actionFailed('payment_method', result.message);
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
