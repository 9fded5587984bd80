import type { Kysely } from 'kysely';
import { idempotencyKeys } from './payments.tables';
import type { RecordOfTable } from '../../kernel/columns';
import { rowCodec } from '../../store/rows';
import type { Database } from '../../store/schema';

/** An Idempotency-Key as stored: the request it was claimed for and the answer under it. */
export type IdempotencyKey = RecordOfTable<typeof idempotencyKeys>;

const keyCodec = rowCodec(idempotencyKeys);

/**
 * Idempotency keys and the first answer given under each. Bound to the database or to a
 * transaction: a payment claims its key in the transaction that records it, so a second request
 * with the same key waits for that transaction and then finds the answer.
 */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The key, unless it has expired by `now`. */
  async findLive(clientId: string, key: string, now: string): Promise<IdempotencyKey | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && keyCodec.read(row);
  }

  /** Forgets the client's expired keys, so an expired key can be used again. */
  async deleteExpired(clientId: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('client_id', '=', clientId)
      .where('expires_at', '<=', now)
      .execute();
  }

  /** Forgets every client's expired keys (housekeeping); answers how many went. */
  async deleteAllExpired(now: string): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Inserts the key unless it exists; false when another request holds it. On PostgreSQL a
   * concurrent claim of the same key waits here until the first transaction ends.
   */
  async claim(key: IdempotencyKey): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_keys')
      .values(keyCodec.write(key))
      .onConflict((oc) => oc.columns(['client_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /**
   * Names the payment recorded under the key, in its transaction: status 0 and the payment's id
   * until the transport keeps its answer (status 200) with `storeAnswer`.
   */
  async recordPayment(clientId: string, key: string, paymentEventId: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ response_status: 0, response_body: JSON.stringify({ payment_event_id: paymentEventId }) })
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .execute();
  }

  async storeAnswer(clientId: string, key: string, body: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ response_status: 200, response_body: body })
      .where('client_id', '=', clientId)
      .where('key', '=', key)
      .execute();
  }
}
