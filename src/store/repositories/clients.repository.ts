import type { ClientApplication, ClientIdentity, ClientsRepository } from '../../auth/auth.ports';
import type { SecretBox, SecretPlace } from '../../kernel/secret-box';
import type { Db } from '../database';
import type { ClientApplicationsTable } from '../schema';

export type ClientRow = ClientApplicationsTable;

/** Where a client's consumer secret is stored (the place its sealed value is bound to). */
export function consumerSecretPlace(clientId: string): SecretPlace {
  return { table: 'client_applications', column: 'consumer_secret', rowId: clientId };
}

/** Client applications, their consumer secrets sealed by the secret box. */
export class SqlClientsRepository implements ClientsRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  private clientRowToClient(row: ClientRow): ClientApplication {
    return {
      id: row.id,
      companyId: row.company_id,
      name: row.name,
      consumerKey: row.consumer_key,
      consumerSecret: this.secrets.open(row.consumer_secret, consumerSecretPlace(row.id)),
      createdAt: row.created_at,
    };
  }

  async findByConsumerKey(consumerKey: string): Promise<ClientApplication | undefined> {
    const row = await this.db
      .selectFrom('client_applications')
      .selectAll()
      .where('consumer_key', '=', consumerKey)
      .executeTakeFirst();
    return row && this.clientRowToClient(row);
  }

  async findByTokenHash(tokenHash: string): Promise<ClientIdentity | undefined> {
    return this.db
      .selectFrom('bearer_tokens as t')
      .innerJoin('client_applications as c', 'c.id', 't.client_id')
      .select(['c.id', 'c.company_id as companyId', 'c.name'])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async insert(client: ClientApplication, tokenHash: string | null): Promise<void> {
    const row: ClientRow = {
      id: client.id,
      company_id: client.companyId,
      name: client.name,
      consumer_key: client.consumerKey,
      consumer_secret: this.secrets.seal(client.consumerSecret, consumerSecretPlace(client.id)),
      created_at: client.createdAt,
    };
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
