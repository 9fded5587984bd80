import type { Kysely } from 'kysely';
import { newId } from '../../kernel/ids';
import type { DomainEvent } from '../../kernel/domain-events';
import type { Database, OutboxMessagesTable } from '../../store/schema';

/** Rows per insert statement (PostgreSQL takes at most 65,535 parameters in one). */
const CHUNK = 500;

/**
 * The webhooks' listener of the events of their catalogue: writes, on the caller's transaction, one
 * outbox message (channel `webhook`) per event and enabled endpoint of the facility's company that
 * wants the event's type, due at once. Called inside the transaction of the change the events
 * report, so they are written with it or not at all. Answers how many deliveries were queued.
 */
export async function insertWebhookEvents(
  db: Kysely<Database>,
  events: readonly DomainEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
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
