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
import { paymentAttempts, paymentLines, paymentMethods, payments } from './payments.tables';
import type { BillingAddress, PaymentEvent, PaymentMethod } from './payments.types';
import { text } from '../../kernel/columns';
import type { Db, StoreEvents } from '../../store/database';
import { rowCodec } from '../../store/rows';
import type { Database, PaymentAttemptsTable, PaymentMethodsTable } from '../../store/schema';
import { IdempotencyRepository } from './idempotency.repository';
import { isPostgres } from '../../store/dialect';
import type { DomainEvent } from '../../kernel/domain-events';

/**
 * A method's columns but those the record holds otherwise: its last four (the record's `last4`, as
 * it is an account's too), its billing address (JSON text) and the processor's token, which only a
 * saved method read for a charge carries.
 */
const methodCodec = rowCodec(paymentMethods, ['card_last4', 'billing_address', 'gateway_token']);
/** A payment's columns but its method's id (the record holds the method) and the processor's charge id. */
const paymentCodec = rowCodec(payments, ['payment_method_id', 'gateway_reference']);
/** A line as written: its position is its index in the payment's lines. */
const lineCodec = rowCodec(paymentLines, ['position']);
/** A line as read, with its item's description, in the order of its position. */
const lineWithItemCodec = rowCodec({ ...paymentLines, description: text }, ['position']);
/** An attempt's columns but its holds and payment, kept as JSON text. */
const attemptCodec = rowCodec(paymentAttempts, ['holds', 'payment']);

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

function readMethod(row: PaymentMethodsTable): PaymentMethod {
  return Object.assign(methodCodec.read(row), {
    last4: row.card_last4,
    billingAddress: parseBillingAddress(row.billing_address),
  });
}

function readAttempt(row: PaymentAttemptsTable): PaymentAttempt {
  return Object.assign(attemptCodec.read(row), {
    holds: JSON.parse(row.holds) as PaymentAttempt['holds'],
    payment: JSON.parse(row.payment) as PaymentAttempt['payment'],
  });
}

/** The payment a key's body names while its answer is not kept (and in GraphQL's kept answers). */
function paymentNamedIn(body: string): string | null {
  if (!body.startsWith('{"payment_event_id":')) return null;
  const value = (JSON.parse(body) as { payment_event_id?: unknown }).payment_event_id;
  return typeof value === 'string' ? value : null;
}

class SqlPaymentsTransaction implements PaymentsTransaction {
  private readonly keys: IdempotencyRepository;

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly events: StoreEvents,
  ) {
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
    return this.keys.claim({ ...claim, responseStatus: 0, responseBody: '' });
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
    await this.trx
      .insertInto('payment_attempts')
      .values({
        ...attemptCodec.write(attempt),
        holds: JSON.stringify(attempt.holds),
        payment: JSON.stringify(attempt.payment),
      })
      .execute();
  }

  async deleteAttempt(id: string): Promise<boolean> {
    const result = await this.trx.deleteFrom('payment_attempts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async insertPayment(
    payment: PaymentEvent,
    options: { methodIsNew: boolean; receipt: ReceiptDocument; events?: readonly DomainEvent[] },
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
      const method = payment.paymentMethod;
      await this.trx
        .insertInto('payment_methods')
        .values({
          ...methodCodec.write(method),
          card_last4: method.last4,
          billing_address: method.billingAddress ? JSON.stringify(method.billingAddress) : null,
          gateway_token: null,
        })
        .execute();
    }
    await this.trx
      .insertInto('payments')
      .values({
        ...paymentCodec.write(payment),
        payment_method_id: payment.paymentMethod.id,
        gateway_reference: null,
      })
      .execute();
    await this.trx
      .insertInto('payment_lines')
      .values(payment.lines.map((line, position) => ({ ...lineCodec.write(line), position })))
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
    await this.events.publish(this.trx, options.events ?? []);
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

  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {
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
    return row && Object.assign(readMethod(row), { gatewayToken: row.gateway_token });
  }

  transaction<T>(work: (tx: PaymentsTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SqlPaymentsTransaction(trx, this.events)));
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
    const linesByPayment = new Map<string, typeof lines>();
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
      byId.set(
        payment.id,
        Object.assign(paymentCodec.read(payment), {
          paymentMethod: readMethod(method),
          lines: own.map(lineWithItemCodec.read),
        }),
      );
    }
    return ids.map((id) => byId.get(id) ?? null);
  }

  async findLiveKey(clientId: string, key: string, now: string): Promise<IdempotencyRecord | undefined> {
    const stored = await this.keys.findLive(clientId, key, now);
    if (!stored) return undefined;
    return {
      requestHash: stored.requestHash,
      paymentEventId: paymentNamedIn(stored.responseBody),
      answer: stored.responseStatus === 200 ? stored.responseBody : null,
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
    return row && readAttempt(row);
  }

  async attemptsInDoubt(now: string): Promise<PaymentAttempt[]> {
    const rows = await this.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('lease_until', '<=', now)
      .orderBy('lease_until')
      .limit(100)
      .execute();
    return rows.map(readAttempt);
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
