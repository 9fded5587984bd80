import type { Kysely } from 'kysely';
import type { Db } from '../database';
import type {
  Database,
  EventDocumentsTable,
  EventsTable,
  InvoiceableItemsTable,
  PaymentLinesTable,
  PaymentMethodsTable,
  PaymentsTable,
} from '../schema';
import { IdempotencyRepository } from './idempotency.repository';

export type PaymentMethodRow = PaymentMethodsTable;
export type PaymentRow = PaymentsTable;
export type PaymentLineRow = PaymentLinesTable;
export type PaymentItemRow = Pick<
  InvoiceableItemsTable,
  'id' | 'facility_id' | 'kind' | 'description' | 'total_cents' | 'quantity'
>;

/** A line with the description of its item, for receipts and read-back. */
export type PaymentLineWithItemRow = PaymentLineRow & { description: string };

/** A payment as read back: its row, the method it used and its lines. */
export interface StoredPayment {
  payment: PaymentRow;
  method: PaymentMethodRow;
  lines: PaymentLineWithItemRow[];
}

/** Everything one successful payment writes. */
export interface NewPaymentRows {
  event: EventsTable;
  /** Null when an already saved method was used. */
  method: PaymentMethodRow | null;
  payment: PaymentRow;
  lines: PaymentLineRow[];
  receipt: EventDocumentsTable;
}

/** The writes of one payment, all inside one transaction. */
export class PaymentsTransaction {
  readonly idempotency: IdempotencyRepository;

  constructor(private readonly trx: Kysely<Database>) {
    this.idempotency = new IdempotencyRepository(trx);
  }

  /**
   * Takes `quantity` of a retail item's stock if that many are left; false (and nothing changed)
   * otherwise. One conditional UPDATE, so concurrent payments can never take stock below zero.
   */
  async reserveStock(itemId: string, quantity: number): Promise<boolean> {
    const result = await this.trx
      .updateTable('invoiceable_items')
      .set((eb) => ({ quantity: eb('quantity', '-', quantity) }))
      .where('id', '=', itemId)
      .where('kind', '=', 'retail')
      .where('quantity', '>=', quantity)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async stockOf(itemId: string): Promise<number> {
    const row = await this.trx
      .selectFrom('invoiceable_items')
      .select('quantity')
      .where('id', '=', itemId)
      .executeTakeFirst();
    return row?.quantity ?? 0;
  }

  async insertPayment(rows: NewPaymentRows): Promise<void> {
    await this.trx.insertInto('events').values(rows.event).execute();
    if (rows.method) await this.trx.insertInto('payment_methods').values(rows.method).execute();
    await this.trx.insertInto('payments').values(rows.payment).execute();
    await this.trx.insertInto('payment_lines').values(rows.lines).execute();
    await this.trx.insertInto('event_documents').values(rows.receipt).execute();
  }

  /** What the processor answered: its charge id, and its token when a new method was saved. */
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

export class PaymentsRepository {
  readonly idempotency: IdempotencyRepository;

  constructor(private readonly db: Db) {
    this.idempotency = new IdempotencyRepository(db);
  }

  /** The facility's items by id, in key order, null for a missing id or another facility's item. */
  async facilityItemsByIds(facilityId: string, ids: readonly string[]): Promise<(PaymentItemRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('invoiceable_items')
      .select(['id', 'facility_id', 'kind', 'description', 'total_cents', 'quantity'])
      .where('facility_id', '=', facilityId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** A reuseable method saved at the facility. */
  findSavedMethod(facilityId: string, id: string): Promise<PaymentMethodRow | undefined> {
    return this.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('id', '=', id)
      .where('facility_id', '=', facilityId)
      .where('reuseable', '=', 1)
      .executeTakeFirst();
  }

  /** Runs `work` in one transaction: everything it wrote is kept if it returns, nothing if it throws. */
  transaction<T>(work: (tx: PaymentsTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new PaymentsTransaction(trx)));
  }

  /** Payments by id (= their event id), in key order, null for a missing id. */
  async paymentsByIds(ids: readonly string[]): Promise<(StoredPayment | null)[]> {
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
    const byId = new Map<string, StoredPayment>();
    for (const payment of payments) {
      const method = methodById.get(payment.payment_method_id);
      if (!method) continue;
      const own = (linesByPayment.get(payment.id) ?? []).sort((a, b) => a.position - b.position);
      byId.set(payment.id, { payment, method, lines: own });
    }
    return ids.map((id) => byId.get(id) ?? null);
  }
}
