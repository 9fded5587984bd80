import { templateKind } from './move-in.templates';
import type { MoveInsRepository, SessionDocumentWithBody } from './move-ins.ports';
import { moveInSessions, sessionDocuments, storedFee } from './move-ins.tables';
import type { MoveInFee, MoveInSession, SessionDocument } from './move-ins.types';
import type { RowOf } from '../../kernel/columns';
import { compareCodePoints } from '../../kernel/compare';
import type { Db, StoreEvents } from '../../store/database';
import { rowCodec } from '../../store/rows';
import type { MoveInSessionsTable, SessionDocumentsTable } from '../../store/schema';
import type { DomainEvent } from '../../kernel/domain-events';

/** A session's columns but its fees, which are kept as JSON text. */
const sessionCodec = rowCodec(moveInSessions, ['fees']);
const feeCodec = rowCodec(storedFee);
const documentCodec = rowCodec(sessionDocuments);
/** A document without its body, which only its PDF needs. */
const listedDocumentCodec = rowCodec(sessionDocuments, ['body']);

function readSession(row: MoveInSessionsTable): MoveInSession {
  return Object.assign(sessionCodec.read(row), {
    fees: (JSON.parse(row.fees) as RowOf<typeof storedFee>[]).map(feeCodec.read),
  });
}

/** A stored document with its kind, which is its template's. */
function readDocument<Row extends Pick<SessionDocumentsTable, 'description'>, Document extends object>(
  row: Row,
  read: (row: Row) => Document,
) {
  return Object.assign(read(row), templateKind(row.description));
}

export class SqlMoveInsRepository implements MoveInsRepository {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {}

  async moveInFees(facilityId: string): Promise<MoveInFee[]> {
    const rows = await this.db
      .selectFrom('invoiceable_items')
      .select(['id', 'description', 'total_cents'])
      .where('facility_id', '=', facilityId)
      .where('kind', '=', 'fee')
      .where('required_at_move_in', '=', 1)
      .execute();
    // Sorted here by code point, so the order never depends on a PostgreSQL collation.
    return rows
      .map((row) => ({ row, key: row.description.toLowerCase() }))
      .sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.row.id, b.row.id))
      .map(({ row }) => ({ id: row.id, description: row.description, amountCents: row.total_cents }));
  }

  async insertSession(
    session: MoveInSession,
    documents: readonly SessionDocumentWithBody[],
    events: readonly DomainEvent[] = [],
  ): Promise<void> {
    const rows = documents.map(documentCodec.write);
    const row = { ...sessionCodec.write(session), fees: JSON.stringify(session.fees.map(feeCodec.write)) };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('move_in_sessions').values(row).execute();
      if (rows.length > 0) await trx.insertInto('session_documents').values(rows).execute();
      await this.events.publish(trx, events);
    });
  }

  async findSession(facilityId: string, sessionId: string): Promise<MoveInSession | undefined> {
    const row = await this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && readSession(row);
  }

  async findSessionDocument(
    sessionId: string,
    documentId: string,
  ): Promise<SessionDocumentWithBody | undefined> {
    const row = await this.db
      .selectFrom('session_documents')
      .selectAll()
      .where('id', '=', documentId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row && readDocument(row, documentCodec.read);
  }

  async sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, readSession(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('session_documents')
      .select(listedDocumentCodec.columns)
      .where('session_id', 'in', [...new Set(sessionIds)])
      .execute();
    rows.sort(
      (a, b) =>
        compareCodePoints(a.created_at, b.created_at) ||
        compareCodePoints(a.description.toLowerCase(), b.description.toLowerCase()) ||
        compareCodePoints(a.id, b.id),
    );
    const bySession = new Map<string, SessionDocument[]>();
    for (const row of rows) {
      const document: SessionDocument = readDocument(row, listedDocumentCodec.read);
      const list = bySession.get(row.session_id);
      if (list) list.push(document);
      else bySession.set(row.session_id, [document]);
    }
    return sessionIds.map((id) => bySession.get(id) ?? []);
  }
}
