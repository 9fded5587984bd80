import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database';
import { isPostgres } from '../dialect';
import type { EventsTable, EventType } from '../schema';

export type EventListRow = EventsTable;

/** A facility's events, optionally of one type, listed page by page. */
export class EventsRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  /** Byte-order comparison on both dialects, whatever the PostgreSQL database collation. */
  private binary(column: string): RawBuilder<string> {
    return this.postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  }

  private where(facilityId: string, types: readonly EventType[]) {
    return this.db
      .selectFrom('events')
      .where('facility_id', '=', facilityId)
      .where('type', 'in', [...types]);
  }

  async count(facilityId: string, types: readonly EventType[]): Promise<number> {
    const row = await this.where(facilityId, types)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page, by created_at then id. */
  page(
    facilityId: string,
    types: readonly EventType[],
    limit: number,
    offset: number,
  ): Promise<EventListRow[]> {
    return this.where(facilityId, types)
      .selectAll()
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
