import type { Insertable } from 'kysely';
import type {
  BearerClient,
  ClientApplication,
  ClientKind,
  ClientListing,
  ClientsRepository,
  RotatedCredentials,
} from '../../auth/auth.ports';
import { SecretUnreadable, type SecretBox, type SecretPlace } from '../../kernel/secret-box';
import type { Db } from '../database';
import type { ClientApplicationsTable } from '../schema';

/** Where a client's consumer secret (or the one a rotation replaced) is stored: the place its sealed value is bound to. */
export function consumerSecretPlace(
  clientId: string,
  column: 'consumer_secret' | 'previous_consumer_secret' = 'consumer_secret',
): SecretPlace {
  return { table: 'client_applications', column, rowId: clientId };
}

/** Client applications, their consumer secrets sealed by the secret box. */
export class SqlClientsRepository implements ClientsRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  async findByConsumerKey(consumerKey: string, now: string): Promise<ClientApplication | undefined> {
    const row = await this.db
      .selectFrom('client_applications')
      .select([
        'id',
        'company_id',
        'name',
        'consumer_key',
        'consumer_secret',
        'created_at',
        'previous_consumer_secret',
        'previous_secret_expires_at',
      ])
      .where('consumer_key', '=', consumerKey)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const previousAccepted =
      row.previous_consumer_secret !== null &&
      row.previous_secret_expires_at !== null &&
      row.previous_secret_expires_at > now;
    return {
      id: row.id,
      companyId: row.company_id,
      name: row.name,
      consumerKey: row.consumer_key,
      consumerSecret: this.secrets.open(row.consumer_secret, consumerSecretPlace(row.id)),
      createdAt: row.created_at,
      previousConsumerSecret: previousAccepted
        ? this.secrets.open(
            row.previous_consumer_secret!,
            consumerSecretPlace(row.id, 'previous_consumer_secret'),
          )
        : null,
      previousSecretExpiresAt: previousAccepted ? row.previous_secret_expires_at : null,
    };
  }

  async findByTokenHash(tokenHash: string, now: string): Promise<BearerClient | undefined> {
    return this.db
      .selectFrom('bearer_tokens as t')
      .innerJoin('client_applications as c', 'c.id', 't.client_id')
      .select(['c.id', 'c.company_id as companyId', 'c.name', 't.expires_at as expiresAt'])
      .where('t.token_hash', '=', tokenHash)
      .where('c.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]))
      .executeTakeFirst();
  }

  async insert(
    client: ClientApplication,
    tokenHash: string | null,
    kind: ClientKind = 'created',
  ): Promise<void> {
    const row: Insertable<ClientApplicationsTable> = {
      id: client.id,
      company_id: client.companyId,
      name: client.name,
      consumer_key: client.consumerKey,
      consumer_secret: this.secrets.seal(client.consumerSecret, consumerSecretPlace(client.id)),
      created_at: client.createdAt,
      kind,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('client_applications').values(row).execute();
      if (tokenHash) {
        await trx
          .insertInto('bearer_tokens')
          .values({ token_hash: tokenHash, client_id: client.id, created_at: client.createdAt })
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

  async noteUse(clientId: string, at: string): Promise<void> {
    await this.db
      .updateTable('client_applications')
      .set({ last_used_at: at })
      .where('id', '=', clientId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }

  private listings() {
    return this.db
      .selectFrom('client_applications as c')
      .innerJoin('companies as co', 'co.id', 'c.company_id')
      .select([
        'c.id',
        'c.company_id as companyId',
        'co.name as companyName',
        'c.name',
        'c.kind',
        'c.consumer_key as consumerKey',
        'c.created_at as createdAt',
        'c.last_used_at as lastUsedAt',
        'c.revoked_at as revokedAt',
        'c.previous_secret_expires_at as previousSecretExpiresAt',
      ]);
  }

  async list(now: string, companyId?: string): Promise<ClientListing[]> {
    let query = this.listings();
    if (companyId !== undefined) query = query.where('c.company_id', '=', companyId);
    const rows = await query.orderBy('c.created_at').orderBy('c.id').execute();
    return rows.map((row) => listing(row, now));
  }

  async find(clientId: string, now: string): Promise<ClientListing | undefined> {
    const row = await this.listings().where('c.id', '=', clientId).executeTakeFirst();
    return row && listing(row, now);
  }

  async revoke(clientId: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('client_applications')
        .set({ revoked_at: now, previous_consumer_secret: null, previous_secret_expires_at: null })
        .where('id', '=', clientId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('bearer_tokens').where('client_id', '=', clientId).execute();
      return true;
    });
  }

  async rotate(clientId: string, credentials: RotatedCredentials): Promise<boolean> {
    const { consumerSecret, tokenHash, now, graceUntil } = credentials;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('client_applications')
        .select(['consumer_secret'])
        .where('id', '=', clientId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return false;
      // The replaced secret is kept for the grace period only when it can be read: one sealed
      // under a lost key verifies nothing, and rotating is the way out of that.
      let previous: string | null = null;
      try {
        previous =
          graceUntil > now ? this.secrets.open(row.consumer_secret, consumerSecretPlace(clientId)) : null;
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
      }
      const result = await trx
        .updateTable('client_applications')
        .set({
          consumer_secret: this.secrets.seal(consumerSecret, consumerSecretPlace(clientId)),
          previous_consumer_secret:
            previous === null
              ? null
              : this.secrets.seal(previous, consumerSecretPlace(clientId, 'previous_consumer_secret')),
          previous_secret_expires_at: previous === null ? null : graceUntil,
        })
        .where('id', '=', clientId)
        .where('consumer_secret', '=', row.consumer_secret)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // Tokens already on their way out keep their earlier end; the current ones end with the grace period.
      await trx
        .updateTable('bearer_tokens')
        .set({ expires_at: graceUntil })
        .where('client_id', '=', clientId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', graceUntil)]))
        .execute();
      await trx
        .deleteFrom('bearer_tokens')
        .where('client_id', '=', clientId)
        .where('expires_at', '<=', now)
        .execute();
      await trx
        .insertInto('bearer_tokens')
        .values({ token_hash: tokenHash, client_id: clientId, created_at: now })
        .execute();
      return true;
    });
  }
}

interface ListingRow extends Omit<ClientListing, 'previousValidUntil'> {
  previousSecretExpiresAt: string | null;
}

function listing(row: ListingRow, now: string): ClientListing {
  const { previousSecretExpiresAt, ...rest } = row;
  return {
    ...rest,
    previousValidUntil:
      previousSecretExpiresAt !== null && previousSecretExpiresAt > now ? previousSecretExpiresAt : null,
  };
}
