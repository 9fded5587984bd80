import { sql, type Kysely } from 'kysely';
import { Client, type ClientConfig, type Pool } from 'pg';
import type { LiveEvent, LiveFilter, LiveJournal, LiveListening, LiveNotifications } from './live.types';
import { liveEvents } from '../../live/live.tables';
import { rowCodec } from '../../store/rows';
import type { Database } from '../../store/schema';
import { LIVE_CHANNEL_PREFIX } from './live-events.writer';

const liveColumns = rowCodec(liveEvents);

/** The live journal over `live_events` (written by `live-events.writer.ts`). */
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
    return rows.map(liveColumns.read);
  }

  async after(seq: number, limit: number, filter?: LiveFilter): Promise<LiveEvent[]> {
    let query = this.db.selectFrom('live_events').selectAll().where('seq', '>', seq);
    if (filter?.facilityId) query = query.where('facility_id', '=', filter.facilityId);
    if (filter?.eventId) query = query.where('event_id', '=', filter.eventId);
    if (filter?.types && filter.types.length > 0) query = query.where('type', 'in', [...filter.types]);
    const rows = await query.orderBy('seq').limit(limit).execute();
    return rows.map(liveColumns.read);
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

/**
 * PostgreSQL: LISTENs on the channel of the store's schema, where `live-events.writer.ts`
 * notifies the numbers of the events each transaction wrote; each listener is a connection of its
 * own, made with the pool's settings.
 */
export class PgLiveNotifications implements LiveNotifications {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pool: Pool,
  ) {}

  async listen(heard: (payload: string) => void, lost: (error: unknown) => void): Promise<LiveListening> {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(this.db);
    const channel = `${LIVE_CHANNEL_PREFIX}${rows[0]?.schema ?? 'public'}`;
    // Connecting and the LISTEN each have a deadline: a reconnect waiting on either holds back the
    // source's reads, which go in turn.
    const client = new Client({
      ...(this.pool.options as ClientConfig),
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    client.on('notification', (message) => heard(message.payload ?? ''));
    client.on('error', lost);
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      // Connected but not listening (or half connected): not a connection to keep, nor to leak.
      await client.end().catch(() => undefined);
      throw error;
    }
    return { end: () => client.end() };
  }
}
