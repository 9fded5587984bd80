import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database';
import { isPostgres } from '../dialect';
import type { EventDocumentsTable, EventsTable, EventType } from '../schema';

export type EventRow = EventsTable;
/** A document with its template body and what its PDF fills in: the event's date, tenant and unit. */
export interface DocumentWithContextRow extends EventDocumentsTable {
  event_created_at: string;
  tenant_first_name: string | null;
  tenant_last_name: string | null;
  unit_name: string | null;
}
/** A document without its template body, which only the PDF rendering needs. */
export type EventDocumentRow = Omit<EventDocumentsTable, 'body'>;

/** Events whose documents can be listed (contract 4.8). */
export const DOCUMENT_EVENT_TYPES: readonly EventType[] = [
  'move_in_unit_event',
  'move_out_unit_event',
  'successful_payment_event',
];

const DOCUMENT_COLUMNS = [
  'id',
  'event_id',
  'description',
  'type',
  'is_relevant',
  'esignable',
  'created_at',
] as const;

export class DocumentsRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  /** Byte-order comparison on both dialects, whatever the PostgreSQL database collation. */
  private binary(column: string): RawBuilder<string> {
    return this.postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  }

  /** The facility's event with this id, if it is of a type that has documents. */
  findFacilityEvent(facilityId: string, eventId: string): Promise<EventRow | undefined> {
    return this.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .where('facility_id', '=', facilityId)
      .where('type', 'in', DOCUMENT_EVENT_TYPES)
      .executeTakeFirst();
  }

  async countForEvent(eventId: string): Promise<number> {
    const row = await this.db
      .selectFrom('event_documents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page of the event's documents, by created_at then id. */
  pageForEvent(eventId: string, limit: number, offset: number): Promise<EventDocumentRow[]> {
    return this.db
      .selectFrom('event_documents')
      .select(DOCUMENT_COLUMNS)
      .where('event_id', '=', eventId)
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Events by id, in key order, null for a missing id. */
  async eventsByIds(ids: readonly string[]): Promise<(EventRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Documents of each event, in key order ([] for an event without any), by created_at then id. */
  async documentsByEventIds(eventIds: readonly string[]): Promise<EventDocumentRow[][]> {
    if (eventIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('event_documents')
      .select(DOCUMENT_COLUMNS)
      .where('event_id', 'in', [...new Set(eventIds)])
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .execute();
    const byEvent = new Map<string, EventDocumentRow[]>();
    for (const row of rows) {
      const list = byEvent.get(row.event_id);
      if (list) list.push(row);
      else byEvent.set(row.event_id, [row]);
    }
    return eventIds.map((id) => byEvent.get(id) ?? []);
  }

  /**
   * The facility's document with its body, its event's date, and the tenant and unit of the event's
   * ledger (a payment without a ledger names its tenant itself).
   */
  findDocumentWithContext(
    facilityId: string,
    documentId: string,
  ): Promise<DocumentWithContextRow | undefined> {
    return this.db
      .selectFrom('event_documents as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .leftJoin('ledgers as l', 'l.id', 'e.ledger_id')
      .leftJoin('payments as p', 'p.id', 'e.id')
      .leftJoin('tenants as t', (join) =>
        join.on((eb) =>
          eb.or([
            eb('t.id', '=', eb.ref('l.tenant_id')),
            eb.and([eb('l.id', 'is', null), eb('t.id', '=', eb.ref('p.tenant_id'))]),
          ]),
        ),
      )
      .leftJoin('units as u', 'u.id', 'l.unit_id')
      .selectAll('d')
      .select([
        'e.created_at as event_created_at',
        't.first_name as tenant_first_name',
        't.last_name as tenant_last_name',
        'u.name as unit_name',
      ])
      .where('d.id', '=', documentId)
      .where('e.facility_id', '=', facilityId)
      .where('e.type', 'in', DOCUMENT_EVENT_TYPES)
      .executeTakeFirst();
  }
}
