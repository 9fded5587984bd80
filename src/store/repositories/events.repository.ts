import { sql, type RawBuilder } from 'kysely';
import type { EventsRepository } from '../../domain/documents/documents.ports';
import type { DocumentEvent, EventType } from '../../domain/documents/documents.types';
import type { Db } from '../database';
import { isPostgres } from '../dialect';
import { eventRowToEvent } from './documents.repository';

/** A facility's events, optionally of one type, listed page by page. */
export class SqlEventsRepository implements EventsRepository {
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
  async page(
    facilityId: string,
    types: readonly EventType[],
    limit: number,
    offset: number,
  ): Promise<DocumentEvent[]> {
    const rows = await this.where(facilityId, types)
      .selectAll()
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(eventRowToEvent);
  }
}
