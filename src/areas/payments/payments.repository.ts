import type { Kysely } from 'kysely';
import type {
  IdempotencyRecord,
  PaymentAttempt,
  PaymentItem,
  PaymentsRepository,
  PaymentsTransaction,
  ReceiptDocument,
  SavedPaymentMethod,
} from './payments.ports';
import type { BillingAddress, PaymentEvent, PaymentLine, PaymentMethod } from './payments.types';
import type { Db } from '../../store/database';
import type {
  Database,
  PaymentAttemptsTable,
  PaymentLinesTable,
  PaymentMethodsTable,
  PaymentsTable,
} from '../../store/schema';
import { IdempotencyRepository } from './idempotency.repository';
import { isPostgres } from '../../store/dialect';
import type { WebhookEvent } from '../webhooks/webhooks.types';
import { insertWebhookEvents } from '../webhooks/webhook-events.writer';

export type PaymentMethodRow = PaymentMethodsTable;
export type PaymentRow = PaymentsTable;
export type PaymentLineRow = PaymentLinesTable;

/** A line with the description of its item, for receipts and read-back. */
type PaymentLineWithItemRow = PaymentLineRow & { description: string };

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

function paymentMethodToRow(method: PaymentMethod): PaymentMethodRow {
  return {
    id: method.id,
    facility_id: method.facilityId,
    tenant_id: method.tenantId,
    kind: method.kind,
    first_name: method.firstName,
    last_name: method.lastName,
    reuseable: method.reuseable ? 1 : 0,
    card_last4: method.last4,
    card_type: method.cardType,
    expiration_date: method.expirationDate,
    billing_address: method.billingAddress ? JSON.stringify(method.billingAddress) : null,
    created_at: method.createdAt,
    gateway_token: null,
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

function toPaymentEvent(
  payment: PaymentRow,
  method: PaymentMethodRow,
  lines: PaymentLineWithItemRow[],
): PaymentEvent {
  return {
    id: payment.id,
    facilityId: payment.facility_id,
    tenantId: payment.tenant_id,
    amountCents: payment.amount_cents,
    changeDueCents: payment.change_due_cents,
    success: payment.success === 1,
    paidAt: payment.paid_at,
    paymentMethod: paymentMethodRowToPaymentMethod(method),
    lines: lines.map(lineRowToLine),
  };
}

function attemptToRow(attempt: PaymentAttempt): PaymentAttemptsTable {
  return {
    id: attempt.id,
    client_id: attempt.clientId,
    idempotency_key: attempt.idempotencyKey,
    facility_id: attempt.facilityId,
    processor: attempt.processor,
    holds: JSON.stringify(attempt.holds),
    payment: JSON.stringify(attempt.payment),
    created_at: attempt.createdAt,
    lease_until: attempt.leaseUntil,
  };
}

function rowToAttempt(row: PaymentAttemptsTable): PaymentAttempt {
  return {
    id: row.id,
    clientId: row.client_id,
    idempotencyKey: row.idempotency_key,
    facilityId: row.facility_id,
    processor: row.processor,
    holds: JSON.parse(row.holds) as PaymentAttempt['holds'],
    payment: JSON.parse(row.payment) as PaymentAttempt['payment'],
    createdAt: row.created_at,
    leaseUntil: row.lease_until,
  };
}

/** The payment a key's body names while its answer is not kept (and in GraphQL's kept answers). */
function paymentNamedIn(body: string): string | null {
  if (!body.startsWith('{"payment_event_id":')) return null;
  const value = (JSON.parse(body) as { payment_event_id?: unknown }).payment_event_id;
  return typeof value === 'string' ? value : null;
}

class SqlPaymentsTransaction implements PaymentsTransaction {
  private readonly keys: IdempotencyRepository;

  constructor(private readonly trx: Kysely<Database>) {
    this.keys = new IdempotencyRepository(trx);
  }

  forgetExpiredKeys(clientId: string, now: string): Promise<void> {
    return this.keys.deleteExpired(clientId, now);
  }

  claimKey(claim: {
    clientId: string;
    key: string;
    requestHash: string;
    createdAt: string;
    expiresAt: string;
  }) {
    return this.keys.claim({
      client_id: claim.clientId,
      key: claim.key,
      request_hash: claim.requestHash,
      response_status: 0,
      response_body: '',
      created_at: claim.createdAt,
      expires_at: claim.expiresAt,
    });
  }

  recordKeyPayment(
    clientId: string,
    key: string,
    paymentEventId: string,
    answer: string | null,
  ): Promise<void> {
    return answer === null
      ? this.keys.recordPayment(clientId, key, paymentEventId)
      : this.keys.storeAnswer(clientId, key, answer);
  }

  /**
   * One conditional UPDATE, so concurrent payments can never take stock below zero, nor what
   * attempts under way hold. On PostgreSQL the item's row is locked by a statement of its own first,
   * so the UPDATE's count of holds is read after every attempt that held the item before committed.
   */
  async reserveStock(itemId: string, quantity: number): Promise<boolean> {
    await this.lockItem(itemId);
    const result = await this.trx
      .updateTable('invoiceable_items')
      .set((eb) => ({ quantity: eb('quantity', '-', quantity) }))
      .where('id', '=', itemId)
      .where('kind', '=', 'retail')
      .where((eb) =>
        eb(
          'quantity',
          '>=',
          eb(
            eb.val(quantity),
            '+',
            eb.fn.coalesce(
              eb
                .selectFrom('payment_holds as h')
                .select((h) => h.fn.sum<number>('h.quantity').as('held'))
                .where('h.item_id', '=', itemId),
              eb.val(0),
            ),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Takes stock an attempt held (the hold kept it for this payment, so it is there). */
  async takeHeldStock(itemId: string, quantity: number): Promise<boolean> {
    const result = await this.trx
      .updateTable('invoiceable_items')
      .set((eb) => ({ quantity: eb('quantity', '-', quantity) }))
      .where('id', '=', itemId)
      .where('quantity', '>=', quantity)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  stockOf(itemId: string): Promise<number> {
    return this.available(itemId, false);
  }

  private async lockItem(itemId: string): Promise<void> {
    if (isPostgres(this.trx)) {
      await this.trx
        .selectFrom('invoiceable_items')
        .select('id')
        .where('id', '=', itemId)
        .forUpdate()
        .execute();
    }
  }

  /**
   * On PostgreSQL the item's row is locked first, so two attempts holding the same item count each
   * other's holds (SQLite has one writer at a time).
   */
  async holdStock(attemptId: string, itemId: string, quantity: number): Promise<boolean> {
    await this.lockItem(itemId);
    const left = await this.available(itemId, true);
    if (left < quantity) return false;
    await this.trx
      .insertInto('payment_holds')
      .values({ attempt_id: attemptId, item_id: itemId, quantity })
      .execute();
    return true;
  }

  async releaseHolds(attemptId: string): Promise<void> {
    await this.trx.deleteFrom('payment_holds').where('attempt_id', '=', attemptId).execute();
  }

  private async available(itemId: string, retailOnly: boolean): Promise<number> {
    let query = this.trx
      .selectFrom('invoiceable_items as i')
      .select((eb) => [
        'i.quantity',
        eb
          .selectFrom('payment_holds as h')
          .select((h) => h.fn.sum<number | string | null>('h.quantity').as('held'))
          .whereRef('h.item_id', '=', 'i.id')
          .as('held'),
      ])
      .where('i.id', '=', itemId);
    if (retailOnly) query = query.where('i.kind', '=', 'retail');
    const row = await query.executeTakeFirst();
    if (!row || row.quantity === null) return 0;
    return row.quantity - Number(row.held ?? 0);
  }

  async forgetKey(clientId: string, key: string): Promise<void> {
    await this.trx
      .deleteFrom('idempotency_keys')
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .execute();
  }

  async insertAttempt(attempt: PaymentAttempt): Promise<void> {
    await this.trx.insertInto('payment_attempts').values(attemptToRow(attempt)).execute();
  }

  async deleteAttempt(id: string): Promise<boolean> {
    const result = await this.trx.deleteFrom('payment_attempts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async insertPayment(
    payment: PaymentEvent,
    options: { methodIsNew: boolean; receipt: ReceiptDocument; events?: readonly WebhookEvent[] },
  ): Promise<void> {
    const { receipt } = options;
    await this.trx
      .insertInto('events')
      .values({
        id: payment.id,
        facility_id: payment.facilityId,
        type: 'successful_payment_event',
        ledger_id: null,
        created_at: payment.paidAt,
      })
      .execute();
    if (options.methodIsNew) {
      await this.trx
        .insertInto('payment_methods')
        .values(paymentMethodToRow(payment.paymentMethod))
        .execute();
    }
    await this.trx
      .insertInto('payments')
      .values({
        id: payment.id,
        facility_id: payment.facilityId,
        tenant_id: payment.tenantId,
        payment_method_id: payment.paymentMethod.id,
        amount_cents: payment.amountCents,
        change_due_cents: payment.changeDueCents,
        success: payment.success ? 1 : 0,
        paid_at: payment.paidAt,
        gateway_reference: null,
      })
      .execute();
    await this.trx
      .insertInto('payment_lines')
      .values(
        payment.lines.map((line, position) => ({
          id: line.id,
          payment_id: payment.id,
          invoiceable_item_id: line.invoiceableItemId,
          quantity: line.quantity,
          unit_total_cents: line.unitTotalCents,
          line_total_cents: line.lineTotalCents,
          position,
        })),
      )
      .execute();
    await this.trx
      .insertInto('event_documents')
      .values({
        id: receipt.id,
        event_id: payment.id,
        description: receipt.description,
        type: receipt.type,
        is_relevant: 1,
        esignable: 0,
        created_at: receipt.createdAt,
        body: receipt.body,
      })
      .execute();
    await insertWebhookEvents(this.trx, options.events ?? []);
  }

  async recordCharge(
    paymentId: string,
    gatewayReference: string,
    saved: { methodId: string; token: string } | null,
  ): Promise<void> {
    await this.trx
      .updateTable('payments')
      .set({ gateway_reference: gatewayReference })
      .where('id', '=', paymentId)
      .execute();
    if (saved) {
      await this.trx
        .updateTable('payment_methods')
        .set({ gateway_token: saved.token })
        .where('id', '=', saved.methodId)
        .execute();
    }
  }
}

export class SqlPaymentsRepository implements PaymentsRepository {
  private readonly keys: IdempotencyRepository;

  constructor(private readonly db: Db) {
    this.keys = new IdempotencyRepository(db);
  }

  async facilityItemsByIds(facilityId: string, ids: readonly string[]): Promise<(PaymentItem | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_items')
      .select(['id', 'facility_id', 'kind', 'description', 'total_cents', 'quantity'])
      .where('facility_id', '=', facilityId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(
      rows.map((row) => [
        row.id,
        {
          id: row.id,
          facilityId: row.facility_id,
          kind: row.kind,
          description: row.description,
          totalCents: row.total_cents,
          quantity: row.quantity,
        },
      ]),
    );
    return ids.map((id) => byId.get(id) ?? null);
  }

  async findSavedMethod(facilityId: string, id: string): Promise<SavedPaymentMethod | undefined> {
    const row = await this.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('id', '=', id)
      .where('facility_id', '=', facilityId)
      .where('reuseable', '=', 1)
      .executeTakeFirst();
    return row && { ...paymentMethodRowToPaymentMethod(row), gatewayToken: row.gateway_token };
  }

  transaction<T>(work: (tx: PaymentsTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SqlPaymentsTransaction(trx)));
  }

  async paymentsByIds(ids: readonly string[]): Promise<(PaymentEvent | null)[]> {
    if (ids.length === 0) return [];
    const unique = [...new Set(ids)];
    const payments = await this.db.selectFrom('payments').selectAll().where('id', 'in', unique).execute();
    if (payments.length === 0) return ids.map(() => null);
    const methodIds = [...new Set(payments.map((p) => p.payment_method_id))];
    const [methods, lines] = await Promise.all([
      this.db.selectFrom('payment_methods').selectAll().where('id', 'in', methodIds).execute(),
      this.db
        .selectFrom('payment_lines as l')
        .innerJoin('invoiceable_items as i', 'i.id', 'l.invoiceable_item_id')
        .selectAll('l')
        .select('i.description')
        .where(
          'l.payment_id',
          'in',
          payments.map((p) => p.id),
        )
        .execute(),
    ]);
    const methodById = new Map(methods.map((m) => [m.id, m]));
    const linesByPayment = new Map<string, PaymentLineWithItemRow[]>();
    for (const line of lines) {
      const list = linesByPayment.get(line.payment_id);
      if (list) list.push(line);
      else linesByPayment.set(line.payment_id, [line]);
    }
    const byId = new Map<string, PaymentEvent>();
    for (const payment of payments) {
      const method = methodById.get(payment.payment_method_id);
      if (!method) continue;
      const own = (linesByPayment.get(payment.id) ?? []).sort((a, b) => a.position - b.position);
      byId.set(payment.id, toPaymentEvent(payment, method, own));
    }
    return ids.map((id) => byId.get(id) ?? null);
  }

  async findLiveKey(clientId: string, key: string, now: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.keys.findLive(clientId, key, now);
    if (!row) return undefined;
    return {
      requestHash: row.request_hash,
      paymentEventId: paymentNamedIn(row.response_body),
      answer: row.response_status === 200 ? row.response_body : null,
    };
  }

  deleteExpiredKeys(now: string): Promise<number> {
    return this.keys.deleteAllExpired(now);
  }

  async findAttemptByKey(clientId: string, key: string): Promise<PaymentAttempt | undefined> {
    const row = await this.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row && rowToAttempt(row);
  }

  async attemptsInDoubt(now: string): Promise<PaymentAttempt[]> {
    const rows = await this.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('lease_until', '<=', now)
      .orderBy('lease_until')
      .limit(100)
      .execute();
    return rows.map(rowToAttempt);
  }

  async takeAttempt(id: string, now: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('payment_attempts')
      .set({ lease_until: leaseUntil })
      .where('id', '=', id)
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
