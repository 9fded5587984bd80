import type { Kysely, Selectable } from 'kysely';
import type { LiveEvent, LiveFilter, LiveJournal } from './live.types';
import type { Database, LiveEventsTable } from '../../store/schema';

function liveRowToEvent(row: Selectable<LiveEventsTable>): LiveEvent {
  return {
    seq: Number(row.seq),
    facilityId: row.facility_id,
    eventId: row.event_id,
    type: row.type,
    occurredAt: row.occurred_at,
    body: row.body,
  };
}

/** The live journal over `live_events` (written by `webhook-events.writer.ts`). */
export class SqlLiveJournal implements LiveJournal {
  constructor(private readonly db: Kysely<Database>) {}

  async bySeqs(seqs: readonly number[]): Promise<LiveEvent[]> {
    if (seqs.length === 0) return [];
    const rows = await this.db
      .selectFrom('live_events')
      .selectAll()
      .where('seq', 'in', [...seqs])
      .orderBy('seq')
      .execute();
    return rows.map(liveRowToEvent);
  }

  async after(seq: number, limit: number, filter?: LiveFilter): Promise<LiveEvent[]> {
    let query = this.db.selectFrom('live_events').selectAll().where('seq', '>', seq);
    if (filter?.facilityId) query = query.where('facility_id', '=', filter.facilityId);
    if (filter?.eventId) query = query.where('event_id', '=', filter.eventId);
    if (filter?.types && filter.types.length > 0) query = query.where('type', 'in', [...filter.types]);
    const rows = await query.orderBy('seq').limit(limit).execute();
    return rows.map(liveRowToEvent);
  }

  async bounds(): Promise<{ first: number; last: number } | null> {
    const row = await this.db
      .selectFrom('live_events')
      .select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')])
      .executeTakeFirst();
    if (!row || row.first === null || row.last === null) return null;
    return { first: Number(row.first), last: Number(row.last) };
  }

  async pruneBefore(occurredAt: string): Promise<number> {
    const newest = this.db.selectFrom('live_events').select((eb) => eb.fn.max('seq').as('newest'));
    const result = await this.db
      .deleteFrom('live_events')
      .where('occurred_at', '<', occurredAt)
      // The newest stays, so the first number kept always tells how far back a replay reaches.
      .where('seq', '<', newest)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
