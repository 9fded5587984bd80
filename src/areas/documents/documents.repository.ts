import { sql, type RawBuilder } from 'kysely';
import type { DocumentsRepository, DocumentWithContext } from './documents.ports';
import { eventDocuments, events } from './documents.tables';
import { DOCUMENT_EVENT_TYPES, type DocumentEvent, type EventDocument } from './documents.types';
import { nullable, text } from '../../kernel/columns';
import type { Db } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { rowCodec } from '../../store/rows';

const eventCodec = rowCodec(events);
/** A document without its template body, which only the PDF rendering needs. */
const documentCodec = rowCodec(eventDocuments, ['body']);
/** A document with its template body and what its PDF fills in: the event's date, tenant and unit. */
const documentWithContextCodec = rowCodec({
  ...eventDocuments,
  event_created_at: text,
  tenant_first_name: nullable(text),
  tenant_last_name: nullable(text),
  unit_name: nullable(text),
});

export class SqlDocumentsRepository implements DocumentsRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  /** Byte-order comparison on both dialects, whatever the PostgreSQL database collation. */
  private binary(column: string): RawBuilder<string> {
    return this.postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  }

  /** The facility's event with this id, if it is of a type that has documents. */
  async findFacilityEvent(facilityId: string, eventId: string): Promise<DocumentEvent | undefined> {
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .where('facility_id', '=', facilityId)
      .where('type', 'in', DOCUMENT_EVENT_TYPES)
      .executeTakeFirst();
    return row && eventCodec.read(row);
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
  async pageForEvent(eventId: string, limit: number, offset: number): Promise<EventDocument[]> {
    const rows = await this.db
      .selectFrom('event_documents')
      .select(documentCodec.columns)
      .where('event_id', '=', eventId)
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .limit(rowLimit(limit))
      .offset(offset)
      .execute();
    return rows.map(documentCodec.read);
  }

  /** Events by id, in key order, null for a missing id. */
  async eventsByIds(ids: readonly string[]): Promise<(DocumentEvent | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, eventCodec.read(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Documents by id, in key order, null for a missing id (each checked through its event). */
  async documentsByIds(ids: readonly string[]): Promise<(EventDocument | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('event_documents')
      .select(documentCodec.columns)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, documentCodec.read(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Documents of each event, in key order ([] for an event without any), by created_at then id. */
  async documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]> {
    if (eventIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('event_documents')
      .select(documentCodec.columns)
      .where('event_id', 'in', [...new Set(eventIds)])
      .orderBy(this.binary('created_at'))
      .orderBy(this.binary('id'))
      .execute();
    const byEvent = new Map<string, EventDocument[]>();
    for (const row of rows) {
      const list = byEvent.get(row.event_id);
      if (list) list.push(documentCodec.read(row));
      else byEvent.set(row.event_id, [documentCodec.read(row)]);
    }
    return eventIds.map((id) => byEvent.get(id) ?? []);
  }

  /**
   * The facility's document with its body, its event's date, and the tenant and unit of the event's
   * ledger (a payment without a ledger names its tenant itself).
   */
  async findDocumentWithContext(
    facilityId: string,
    documentId: string,
  ): Promise<DocumentWithContext | undefined> {
    const row = await this.db
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
    return row && documentWithContextCodec.read(row);
  }
}
