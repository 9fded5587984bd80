import type { Db } from '../database';
import type { ClientApplicationsTable } from '../schema';

export type ClientRow = ClientApplicationsTable;

export class ClientsRepository {
  constructor(private readonly db: Db) {}

  findByConsumerKey(consumerKey: string): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('client_applications')
      .selectAll()
      .where('consumer_key', '=', consumerKey)
      .executeTakeFirst();
  }

  findByTokenHash(tokenHash: string): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('bearer_tokens as t')
      .innerJoin('client_applications as c', 'c.id', 't.client_id')
      .selectAll('c')
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  findById(id: string): Promise<ClientRow | undefined> {
    return this.db.selectFrom('client_applications').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: ClientRow, tokenHash: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('client_applications').values(row).execute();
      if (tokenHash) {
        await trx
          .insertInto('bearer_tokens')
          .values({ token_hash: tokenHash, client_id: row.id, created_at: row.created_at })
          .execute();
      }
    });
  }

  /**
   * Records a nonce; false when the same consumer already used it and it has not yet expired.
   * An expired record of the same nonce is taken over.
   */
  async useNonce(consumerKey: string, nonce: string, now: string, expiresAt: string): Promise<boolean> {
    const result = await this.db
      .insertInto('oauth_nonces')
      .values({ consumer_key: consumerKey, nonce, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .columns(['consumer_key', 'nonce'])
          .doUpdateSet({ expires_at: expiresAt })
          .where('oauth_nonces.expires_at', '<', now),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async deleteExpiredNonces(now: string): Promise<number> {
    const result = await this.db.deleteFrom('oauth_nonces').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
