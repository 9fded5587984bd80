import { sql, type RawBuilder } from 'kysely';
import type { EventFilter, EventsRepository } from './documents.ports';
import { events } from './documents.tables';
import type { DocumentEvent } from './documents.types';
import type { Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { rowCodec } from '../../store/rows';
import { keysetParts, sliceOfRows } from '../../store/keyset';
import type { Slice, SliceRequest } from '../../kernel/connections';

/** An event's row read into the record documents hang off. */
const eventCodec = rowCodec(events);

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

  private where(facilityId: string, filter: EventFilter) {
    const query = this.db
      .selectFrom('events')
      .where('facility_id', '=', facilityId)
      .where('type', 'in', [...filter.types]);
    return filter.ids ? query.where('id', 'in', [...filter.ids]) : query;
  }

  async count(facilityId: string, filter: EventFilter): Promise<number> {
    const row = await this.where(facilityId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page, by created_at then id. */
  async page(
    facilityId: string,
    filter: EventFilter,
    limit: number,
    offset: number,
  ): Promise<DocumentEvent[]> {
    const rows = await this.where(facilityId, filter)
      .selectAll()
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .limit(rowLimit(limit))
      .offset(offset)
      .execute();
    return rows.map(eventCodec.read);
  }

  /** A slice from a position (created_at, id) along events_list_order, and how many events match. */
  async slice(facilityId: string, filter: EventFilter, slice: SliceRequest): Promise<Slice<DocumentEvent>> {
    const keyset = keysetParts([this.binary('created_at'), this.binary('id')], slice);
    const [total, rows] = await Promise.all([
      this.count(facilityId, filter),
      this.where(facilityId, filter)
        .selectAll()
        .where(keyset.where)
        .orderBy(keyset.orderBy)
        .limit(rowLimit(slice.limit + 1))
        .execute(),
    ]);
    const { rows: kept, more } = sliceOfRows(rows, slice);
    return {
      entries: kept.map(eventCodec.read),
      keys: kept.map((row) => [row.created_at, row.id]),
      more,
      total,
    };
  }
}
