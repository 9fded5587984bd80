import { templateKind } from './move-in.templates';
import type { MoveInsRepository, SessionDocumentWithBody } from './move-ins.ports';
import type { MoveInFee, MoveInSession, SessionDocument } from './move-ins.types';
import { compareCodePoints } from '../../kernel/compare';
import type { Db } from '../../store/database';
import type { MoveInSessionsTable, SessionDocumentsTable } from '../../store/schema';
import type { WebhookEvent } from '../webhooks/webhooks.types';
import { insertWebhookEvents } from '../webhooks/webhook-events.writer';

export type MoveInSessionRow = MoveInSessionsTable;
export type SessionDocumentRow = SessionDocumentsTable;

/** Fees as kept in a session row's `fees` column. */
interface StoredFee {
  id: string;
  description: string;
  amount_cents: number;
}

function sessionRowToSession(row: MoveInSessionRow): MoveInSession {
  const fees = (JSON.parse(row.fees) as StoredFee[]).map((fee) => ({
    id: fee.id,
    description: fee.description,
    amountCents: fee.amount_cents,
  }));
  return {
    id: row.id,
    facilityId: row.facility_id,
    unitId: row.unit_id,
    tenantId: row.tenant_id,
    moveInDate: row.move_in_date,
    cost: { rentCents: row.rent_cents, fees, totalCents: row.total_cents },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

function sessionToRow(session: MoveInSession): MoveInSessionRow {
  const fees = session.cost.fees.map((fee): StoredFee => ({
    id: fee.id,
    description: fee.description,
    amount_cents: fee.amountCents,
  }));
  return {
    id: session.id,
    facility_id: session.facilityId,
    unit_id: session.unitId,
    tenant_id: session.tenantId,
    move_in_date: session.moveInDate,
    rent_cents: session.cost.rentCents,
    fees: JSON.stringify(fees),
    total_cents: session.cost.totalCents,
    created_at: session.createdAt,
    expires_at: session.expiresAt,
  };
}

function sessionDocumentRowToDocument(row: SessionDocumentRow): SessionDocumentWithBody {
  return {
    id: row.id,
    sessionId: row.session_id,
    description: row.description,
    ...templateKind(row.description),
    esignable: row.esignable === 1,
    createdAt: row.created_at,
    body: row.body,
  };
}

function withoutBody({ body: _body, ...document }: SessionDocumentWithBody): SessionDocument {
  return document;
}

export class SqlMoveInsRepository implements MoveInsRepository {
  constructor(private readonly db: Db) {}

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
    events: readonly WebhookEvent[] = [],
  ): Promise<void> {
    const rows: SessionDocumentRow[] = documents.map((document) => ({
      id: document.id,
      session_id: document.sessionId,
      description: document.description,
      body: document.body,
      esignable: document.esignable ? 1 : 0,
      created_at: document.createdAt,
    }));
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('move_in_sessions').values(sessionToRow(session)).execute();
      if (rows.length > 0) await trx.insertInto('session_documents').values(rows).execute();
      await insertWebhookEvents(trx, events);
    });
  }

  async findSession(facilityId: string, sessionId: string): Promise<MoveInSession | undefined> {
    const row = await this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row && sessionRowToSession(row);
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
    return row && sessionDocumentRowToDocument(row);
  }

  async sessionsByIds(ids: readonly string[]): Promise<(MoveInSession | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('move_in_sessions')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, sessionRowToSession(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async documentsBySessionIds(sessionIds: readonly string[]): Promise<SessionDocument[][]> {
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
    const bySession = new Map<string, SessionDocument[]>();
    for (const row of rows) {
      const document = withoutBody(sessionDocumentRowToDocument(row));
      const list = bySession.get(row.session_id);
      if (list) list.push(document);
      else bySession.set(row.session_id, [document]);
    }
    return sessionIds.map((id) => bySession.get(id) ?? []);
  }
}
