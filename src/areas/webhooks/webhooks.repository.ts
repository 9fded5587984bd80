import { sql, type RawBuilder } from 'kysely';
import type { OutboxStatus } from '../outbox/outbox.types';
import type { WebhookEndpointsRepository } from './webhooks.ports';
import type {
  DisabledReason,
  EndpointSecrets,
  StoredWebhookEndpoint,
  WebhookCatalogue,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.types';
import type { OutboxRows } from '../outbox/outbox.ports';
import type { OutboxMessage } from '../outbox/outbox.types';
import { webhookEndpoints } from './webhooks.tables';
import type { SecretBox, SecretPlace } from '../../kernel/secret-box';
import type { Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { rowCodec } from '../../store/rows';
import { keysetParts, sliceOfRows } from '../../store/keyset';
import type { Slice, SliceRequest } from '../../kernel/connections';
import type { OutboxMessagesTable, WebhookEndpointsTable } from '../../store/schema';

/** Where an endpoint's secret (`secret`) or the one a rotation replaced (`previous_secret`) is stored. */
export function webhookSecretPlace(endpointId: string, column: 'secret' | 'previous_secret'): SecretPlace {
  return { table: 'webhook_endpoints', column, rowId: endpointId };
}

/**
 * An endpoint's columns but its secrets, which only `storedEndpoint` opens and `sealed` writes,
 * and the two read below: its event types, a comma-separated list, and the replaced secret's
 * expiry, which counts only while that secret is kept.
 */
const endpointColumns = rowCodec(webhookEndpoints, [
  'event_types',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
]);

/** An endpoint as callers see it: its secrets are not read. */
function publicEndpointOf(row: WebhookEndpointsTable, catalogue: WebhookCatalogue): WebhookEndpoint {
  return {
    ...endpointColumns.read(row),
    eventTypes: row.event_types.split(',').filter((type) => catalogue.includes(type)),
    previousSecretExpiresAt: row.previous_secret ? row.previous_secret_expires_at : null,
  };
}

/** A webhook delivery is an outbox message of channel `webhook`, named as webhooks name it. */
function deliveryOf(message: OutboxMessage): WebhookDelivery {
  return {
    id: message.id,
    endpointId: message.recipient,
    facilityId: message.facilityId,
    eventType: message.webhook?.type ?? 'unknown',
    status: message.status,
    attempts: message.attempts,
    responseCode: message.responseCode,
    lastError: message.lastError,
    nextAttemptAt: message.nextAttemptAt,
    createdAt: message.createdAt,
    deliveredAt: message.sentAt,
  };
}

/** Webhook endpoints and their deliveries (outbox messages of channel `webhook`), on SQLite and PostgreSQL. */
export class SqlWebhookEndpointsRepository implements WebhookEndpointsRepository {
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    /** The event types endpoints may ask for (a stored one no longer among them is not read). */
    private readonly eventTypes: WebhookCatalogue,
    /** The outbox's rows: an endpoint's deliveries are its webhook messages. */
    private readonly outboxRows: OutboxRows<OutboxMessagesTable>,
  ) {
    this.postgres = isPostgres(db);
  }

  /** The endpoint with its secrets opened; throws `SecretUnreadable` naming the row and column. */
  private storedEndpoint(row: WebhookEndpointsTable): StoredWebhookEndpoint {
    return {
      ...publicEndpointOf(row, this.eventTypes),
      secrets: {
        current: this.secrets.open(row.secret, webhookSecretPlace(row.id, 'secret')),
        previous:
          row.previous_secret === null
            ? null
            : this.secrets.open(row.previous_secret, webhookSecretPlace(row.id, 'previous_secret')),
        previousExpiresAt: row.previous_secret_expires_at,
      },
    };
  }

  /** The stored columns of an endpoint's secrets, sealed. */
  private sealed(id: string, secrets: EndpointSecrets) {
    return {
      secret: this.secrets.seal(secrets.current, webhookSecretPlace(id, 'secret')),
      previous_secret:
        secrets.previous === null
          ? null
          : this.secrets.seal(secrets.previous, webhookSecretPlace(id, 'previous_secret')),
      previous_secret_expires_at: secrets.previousExpiresAt,
    };
  }

  /** Byte-order comparison on both dialects, whatever the PostgreSQL database collation. */
  private binary(column: string): RawBuilder<string> {
    return this.postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  }

  async insert(endpoint: StoredWebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhook_endpoints')
      .values({
        ...endpointColumns.write(endpoint),
        event_types: endpoint.eventTypes.join(','),
        ...this.sealed(endpoint.id, endpoint.secrets),
      })
      .execute();
  }

  async find(id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && this.storedEndpoint(row);
  }

  async findEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && publicEndpointOf(row, this.eventTypes);
  }

  async ofCompany(companyId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .execute();
    return rows.map((row) => publicEndpointOf(row, this.eventTypes));
  }

  async countOfCompany(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async setDisabled(id: string, at: string | null, reason: DisabledReason | null): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set(
        at === null
          ? { disabled_at: null, disabled_reason: null, failing_since: null }
          : { disabled_at: at, disabled_reason: reason },
      )
      .where('id', '=', id)
      .execute();
  }

  async replaceSecrets(id: string, secrets: EndpointSecrets, rotatedAt: string): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ ...this.sealed(id, secrets), secret_rotated_at: rotatedAt })
      .where('id', '=', id)
      .execute();
  }

  async recordSuccess(id: string): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', id)
      .where('failing_since', 'is not', null)
      .execute();
  }

  async recordFailure(id: string, at: string, disableIfFailingSince: string): Promise<boolean> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: at })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute();
    const disabled = await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at, disabled_reason: 'failing' })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .where('failing_since', '<=', disableIfFailingSince)
      .executeTakeFirst();
    return Number(disabled.numUpdatedRows) === 1;
  }

  async deliveries(endpointId: string, limit: number, status?: OutboxStatus): Promise<WebhookDelivery[]> {
    let query = this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('channel', '=', 'webhook')
      .where('recipient', '=', endpointId);
    if (status) query = query.where('status', '=', status);
    const rows = await query
      .orderBy(this.binary('created_at'), 'desc')
      .orderBy(this.binary('id'), 'desc')
      .limit(rowLimit(limit))
      .execute();
    return rows.map((row) => deliveryOf(this.outboxRows.read(row)));
  }

  /**
   * A slice of the endpoint's deliveries from a position, newest first (created_at, then id,
   * descending), along outbox_messages_recipient_order, and how many match.
   */
  async deliverySlice(
    endpointId: string,
    slice: SliceRequest,
    status?: OutboxStatus,
  ): Promise<Slice<WebhookDelivery>> {
    const keyset = keysetParts([this.binary('created_at'), this.binary('id')], slice, true);
    let query = this.db
      .selectFrom('outbox_messages')
      .where('channel', '=', 'webhook')
      .where('recipient', '=', endpointId);
    if (status) query = query.where('status', '=', status);
    const [counted, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      query
        .selectAll()
        .where(keyset.where)
        .orderBy(keyset.orderBy)
        .limit(rowLimit(slice.limit + 1))
        .execute(),
    ]);
    const { rows: kept, more } = sliceOfRows(rows, slice);
    return {
      entries: kept.map((row) => deliveryOf(this.outboxRows.read(row))),
      keys: kept.map((row) => [row.created_at, row.id]),
      more,
      total: Number(counted.count),
    };
  }

  async findDelivery(id: string): Promise<WebhookDelivery | undefined> {
    const row = await this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('id', '=', id)
      .where('channel', '=', 'webhook')
      .executeTakeFirst();
    return row && deliveryOf(this.outboxRows.read(row));
  }

  async requeueDelivery(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('outbox_messages')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        claimed_by: null,
        claimed_until: null,
        last_error: null,
      })
      .where('id', '=', id)
      .where('channel', '=', 'webhook')
      .where((eb) => eb.or([eb('status', '<>', 'sending'), eb('claimed_until', '<=', at)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
