import type { Kysely } from 'kysely';
import { newId } from '../../kernel/ids';
import type { WebhookEvent } from './webhooks.types';
import type { Database, LiveEventsTable, OutboxMessagesTable } from '../../store/schema';

/**
 * The PostgreSQL channel live events are announced on, one per schema (instances of one database
 * share it); the journal's trigger (migration `20261128100000_live_events_commit_order`) spells it too.
 */
export const LIVE_CHANNEL_PREFIX = 'facility_ops_live:';

/** Rows per insert statement (PostgreSQL takes at most 65,535 parameters in one). */
const CHUNK = 500;

/**
 * Writes webhook events on the caller's transaction: one outbox message (channel `webhook`) per
 * event and enabled endpoint of the facility's company that wants the event's type, due at once.
 * Called inside the transaction of the change the events report, so they are written with it or
 * not at all. Answers how many deliveries were queued.
 */
export async function insertWebhookEvents(
  db: Kysely<Database>,
  events: readonly WebhookEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  await insertLiveEvents(db, events);
  const facilityIds = [...new Set(events.map((event) => event.facilityId))];
  const endpoints = await db
    .selectFrom('webhook_endpoints as w')
    .innerJoin('facilities as f', 'f.company_id', 'w.company_id')
    .select(['f.id as facility_id', 'w.id as endpoint_id', 'w.event_types'])
    .where('f.id', 'in', facilityIds)
    .where('w.disabled_at', 'is', null)
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
  if (endpoints.length === 0) return 0;
  const rows: OutboxMessagesTable[] = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.facility_id !== event.facilityId) continue;
      if (!endpoint.event_types.split(',').includes(event.type)) continue;
      rows.push({
        id: newId(),
        facility_id: event.facilityId,
        event_id: event.eventId,
        channel: 'webhook',
        recipient: endpoint.endpoint_id,
        payload: JSON.stringify({ kind: 'webhook', type: event.type, body: event.body }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: event.occurredAt,
        claimed_by: null,
        claimed_until: null,
        last_error: null,
        created_at: event.occurredAt,
        sent_at: null,
        response_code: null,
      });
    }
  }
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto('outbox_messages')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
  return rows.length;
}

/**
 * Writes the events to `live_events` for GraphQL subscriptions, on the caller's transaction. On
 * PostgreSQL the rows are numbered as the transaction commits, and their numbers notified, by the
 * journal's trigger (migration `20261128100000_live_events_commit_order`): PostgreSQL delivers a
 * notification only when the transaction commits, so every instance hears of the events after
 * commit, in commit order, and never of a rollback.
 */
async function insertLiveEvents(db: Kysely<Database>, events: readonly WebhookEvent[]): Promise<void> {
  await insertLiveRows(
    db,
    events.map((event) => ({
      facility_id: event.facilityId,
      event_id: event.eventId,
      type: event.type,
      occurred_at: event.occurredAt,
      body: event.body,
    })),
  );
}

/** The type of the live event a webhook message's delivery outcome writes (no webhook carries it). */
export const WEBHOOK_DELIVERY_LIVE_TYPE = 'webhook.delivery';

/**
 * Writes, on the caller's transaction, a live event saying a webhook message's delivery changed
 * (`event_id` the endpoint, `body` the message's id), when the message is a webhook's.
 */
export async function insertDeliveryLiveEvent(
  db: Kysely<Database>,
  messageId: string,
  at: string,
): Promise<void> {
  const message = await db
    .selectFrom('outbox_messages')
    .select(['facility_id', 'recipient'])
    .where('id', '=', messageId)
    .where('channel', '=', 'webhook')
    .executeTakeFirst();
  if (!message) return;
  await insertLiveRows(db, [
    {
      facility_id: message.facility_id,
      event_id: message.recipient,
      type: WEBHOOK_DELIVERY_LIVE_TYPE,
      occurred_at: at,
      body: messageId,
    },
  ]);
}

async function insertLiveRows(
  db: Kysely<Database>,
  rows: Array<Omit<LiveEventsTable, 'seq'>>,
): Promise<void> {
  await db.insertInto('live_events').values(rows).execute();
}
