import type { Db } from '../database';
import type { MoveInSessionsTable, SessionDocumentsTable } from '../schema';
import { compareCodePoints } from '../../domain/shared/compare';

export type MoveInSessionRow = MoveInSessionsTable;
export type SessionDocumentRow = SessionDocumentsTable;
/** A fee item charged at every move-in, priced at its total (tax included). */
export interface MoveInFeeRow {
  id: string;
  description: string;
  total_cents: number;
}

export class MoveInsRepository {
  constructor(private readonly db: Db) {}

  /** The facility's fee items required at move-in, by description (case-insensitive), then id. */
  async moveInFees(facilityId: string): Promise<MoveInFeeRow[]> {
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
      .map(({ row }) => row);
  }

  /** Writes a session and its documents together. */
  async insertSession(session: MoveInSessionRow, documents: SessionDocumentRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('move_in_sessions').values(session).execute();
      if (documents.length > 0) await trx.insertInto('session_documents').values(documents).execute();
    });
  }

  findSession(facilityId: string, sessionId: string): Promise<MoveInSessionRow | undefined> {
    return this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
  }

  findSessionDocument(sessionId: string, documentId: string): Promise<SessionDocumentRow | undefined> {
    return this.db
      .selectFrom('session_documents')
      .selectAll()
      .where('id', '=', documentId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
  }

  /** Sessions by id, in key order, null for a missing id. */
  async sessionsByIds(ids: readonly string[]): Promise<(MoveInSessionRow | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Documents of each session, in key order ([] for none), by created_at, description, then id. */
  async documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocumentRow[][]> {
    if (sessionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('session_documents')
      .selectAll()
      .where('session_id', 'in', [...new Set(sessionIds)])
      .execute();
    rows.sort(
      (a, b) =>
        compareCodePoints(a.created_at, b.created_at) ||
        compareCodePoints(a.description.toLowerCase(), b.description.toLowerCase()) ||
        compareCodePoints(a.id, b.id),
    );
    const bySession = new Map<string, SessionDocumentRow[]>();
    for (const row of rows) {
      const list = bySession.get(row.session_id);
      if (list) list.push(row);
      else bySession.set(row.session_id, [row]);
    }
    return sessionIds.map((id) => bySession.get(id) ?? []);
  }
}
