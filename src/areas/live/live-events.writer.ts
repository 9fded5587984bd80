import type { DomainEvent } from '../../kernel/domain-events';
import type { Db } from '../../store/database';

/**
 * The PostgreSQL channel live events are announced on, one per schema (instances of one database
 * share it); the journal's trigger (migration `20261128100000_live_events_commit_order`) spells it too.
 */
export const LIVE_CHANNEL_PREFIX = 'facility_ops_live:';

/**
 * The live journal's listener of every domain event: writes the events to `live_events` for GraphQL
 * subscriptions, on the caller's transaction. On PostgreSQL the rows are numbered as the
 * transaction commits, and their numbers notified, by the journal's trigger (migration
 * `20261128100000_live_events_commit_order`): PostgreSQL delivers a notification only when the
 * transaction commits, so every instance hears of the events after commit, in commit order, and
 * never of a rollback.
 */
export async function writeLiveEvents(db: Db, events: readonly DomainEvent[]): Promise<void> {
  await db
    .insertInto('live_events')
    .values(
      events.map((event) => ({
        facility_id: event.facilityId,
        event_id: event.eventId,
        type: event.type,
        occurred_at: event.occurredAt,
        body: event.body,
      })),
    )
    .execute();
}
