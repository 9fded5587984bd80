import type { Transaction } from 'kysely';
import type { EsignRepository, SigningConflict } from './esign.ports';
import type {
  EsignAuditEvent,
  EsignRecords,
  SignedDocument,
  SignedDocumentInfo,
  SigningLink,
} from './esign.types';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { SignedPdfs } from '../documents/pdf.ports';
import type { RenderedPdf } from '../documents/pdf.types';
import type { Db } from '../../store/database';
import type {
  Database,
  EsignAuditEventsTable,
  EsignLinkDocumentsTable,
  EsignLinksTable,
  EsignSignedDocumentsTable,
} from '../../store/schema';
import type { WebhookEvent } from '../webhooks/webhooks.types';
import { messageToRow } from '../outbox/outbox.repository';
import { insertWebhookEvents } from '../webhooks/webhook-events.writer';

export type EsignLinkRow = EsignLinksTable;
export type EsignAuditEventRow = EsignAuditEventsTable;
type SignedInfoRow = Omit<EsignSignedDocumentsTable, 'pdf'>;

const SIGNED_INFO_COLUMNS = [
  'document_id',
  'message_id',
  'facility_id',
  'event_id',
  'signed_at',
  'filename',
  'sha256',
] as const;

export function linkRowToLink(row: EsignLinkRow, documents: readonly EsignLinkDocumentsTable[]): SigningLink {
  return {
    messageId: row.message_id,
    facilityId: row.facility_id,
    eventId: row.event_id,
    channel: row.channel,
    recipient: row.recipient,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    firstViewedAt: row.first_viewed_at,
    revokedAt: row.revoked_at,
    completedAt: row.completed_at,
    documents: [...documents]
      .sort((a, b) => Number(a.position) - Number(b.position))
      .map((d) => ({
        documentId: d.document_id,
        description: d.description,
        documentSha256: d.document_sha256,
      })),
  };
}

export function auditRowToEvent(row: EsignAuditEventRow): EsignAuditEvent {
  return {
    id: row.id,
    messageId: row.message_id,
    documentId: row.document_id,
    facilityId: row.facility_id,
    eventId: row.event_id,
    kind: row.kind,
    at: row.at,
    channel: row.channel,
    recipient: row.recipient,
    signerName: row.signer_name,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    consentVersion: row.consent_version,
    documentSha256: row.document_sha256,
    signedSha256: row.signed_sha256,
  };
}

function eventToRow(event: EsignAuditEvent): EsignAuditEventRow {
  return {
    id: event.id,
    message_id: event.messageId,
    document_id: event.documentId,
    facility_id: event.facilityId,
    event_id: event.eventId,
    kind: event.kind,
    at: event.at,
    channel: event.channel,
    recipient: event.recipient,
    signer_name: event.signerName,
    ip_address: event.ipAddress,
    user_agent: event.userAgent,
    consent_version: event.consentVersion,
    document_sha256: event.documentSha256,
    signed_sha256: event.signedSha256,
  };
}

function signedRowToInfo(row: SignedInfoRow): SignedDocumentInfo {
  return {
    documentId: row.document_id,
    messageId: row.message_id,
    facilityId: row.facility_id,
    eventId: row.event_id,
    signedAt: row.signed_at,
    filename: row.filename,
    sha256: row.sha256,
  };
}

/** Thrown inside a transaction to roll it back with a conflict to report. */
class Conflict extends Error {
  constructor(readonly conflict: SigningConflict) {
    super(conflict);
  }
}

/** Signing links, their audit trail and signed PDFs, on SQLite and PostgreSQL. */
export class SqlEsignRepository implements EsignRepository, SignedPdfs {
  constructor(private readonly db: Db) {}

  async insertMessageWithLink(
    message: OutboxMessage,
    link: SigningLink,
    tokenHash: string,
    sent: readonly EsignAuditEvent[],
    events: readonly WebhookEvent[] = [],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('outbox_messages').values(messageToRow(message)).execute();
      await trx
        .insertInto('esign_links')
        .values({
          message_id: link.messageId,
          token_hash: tokenHash,
          facility_id: link.facilityId,
          event_id: link.eventId,
          channel: link.channel,
          recipient: link.recipient,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
          first_viewed_at: link.firstViewedAt,
          revoked_at: link.revokedAt,
          completed_at: link.completedAt,
        })
        .execute();
      await trx
        .insertInto('esign_link_documents')
        .values(
          link.documents.map((d, position) => ({
            message_id: link.messageId,
            document_id: d.documentId,
            position,
            description: d.description,
            document_sha256: d.documentSha256,
          })),
        )
        .execute();
      await this.insertEvents(trx, sent);
      await insertWebhookEvents(trx, events);
    });
  }

  async findLinkByTokenHash(tokenHash: string): Promise<SigningLink | undefined> {
    const row = await this.db
      .selectFrom('esign_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row
      ? (await this.withDocuments([row], { column: 'message_id', values: [row.message_id] }))[0]
      : undefined;
  }

  async findLink(facilityId: string, messageId: string): Promise<SigningLink | undefined> {
    const row = await this.db
      .selectFrom('esign_links')
      .selectAll()
      .where('message_id', '=', messageId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row
      ? (await this.withDocuments([row], { column: 'message_id', values: [row.message_id] }))[0]
      : undefined;
  }

  async recordFirstView(
    messageId: string,
    at: string,
    viewed: readonly EsignAuditEvent[],
    events: readonly WebhookEvent[] = [],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('esign_links')
        .set({ first_viewed_at: at })
        .where('message_id', '=', messageId)
        .where('first_viewed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.insertEvents(trx, viewed);
      await insertWebhookEvents(trx, events);
      return true;
    });
  }

  async recordSigning(
    messageId: string,
    at: string,
    signatures: readonly EsignAuditEvent[],
    signed: readonly SignedDocument[],
    events: readonly WebhookEvent[] = [],
  ): Promise<SigningConflict | null> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // The row lock (PostgreSQL) or the single writer (SQLite) lets one submit through; a second
        // one finds the link completed and writes nothing.
        const completed = await trx
          .updateTable('esign_links')
          .set({ completed_at: at })
          .where('message_id', '=', messageId)
          .where('completed_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', at)
          .executeTakeFirst();
        if (Number(completed.numUpdatedRows) !== 1) throw new Conflict('not_open');
        if (signed.length > 0) {
          // Another message's link may have signed one of these documents meanwhile.
          const inserted = await trx
            .insertInto('esign_signed_documents')
            .values(
              signed.map((s) => ({
                document_id: s.documentId,
                message_id: s.messageId,
                facility_id: s.facilityId,
                event_id: s.eventId,
                signed_at: s.signedAt,
                filename: s.filename,
                sha256: s.sha256,
                pdf: s.pdf,
              })),
            )
            .onConflict((oc) => oc.column('document_id').doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== signed.length) {
            throw new Conflict('already_signed');
          }
        }
        await this.insertEvents(trx, signatures);
        await insertWebhookEvents(trx, events);
      });
    } catch (error) {
      if (error instanceof Conflict) return error.conflict;
      throw error;
    }
    return null;
  }

  async revoke(messageId: string, at: string, revoked: readonly EsignAuditEvent[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('esign_links')
        .set({ revoked_at: at })
        .where('message_id', '=', messageId)
        .where('revoked_at', 'is', null)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.insertEvents(trx, revoked);
      return true;
    });
  }

  async signedDocument(documentId: string): Promise<SignedDocument | undefined> {
    const row = await this.db
      .selectFrom('esign_signed_documents')
      .selectAll()
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    return row ? { ...signedRowToInfo(row), pdf: Buffer.from(row.pdf) } : undefined;
  }

  /** The signed copy downloads answer: only a document of this facility's. */
  async signedPdf(facilityId: string, documentId: string): Promise<RenderedPdf | undefined> {
    const row = await this.db
      .selectFrom('esign_signed_documents')
      .select(['filename', 'pdf'])
      .where('document_id', '=', documentId)
      .where('facility_id', '=', facilityId)
      .executeTakeFirst();
    return row ? { filename: row.filename, content: Buffer.from(row.pdf) } : undefined;
  }

  async signedDocuments(documentIds: readonly string[]): Promise<SignedDocumentInfo[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('esign_signed_documents')
      .select(SIGNED_INFO_COLUMNS)
      .where('document_id', 'in', [...new Set(documentIds)])
      .execute();
    return rows.map(signedRowToInfo);
  }

  async recordsOfEvents(eventIds: readonly string[]): Promise<EsignRecords[]> {
    if (eventIds.length === 0) return [];
    const ids = [...new Set(eventIds)];
    const [linkRows, signedRows, auditRows] = await Promise.all([
      this.db.selectFrom('esign_links').selectAll().where('event_id', 'in', ids).execute(),
      this.db
        .selectFrom('esign_signed_documents')
        .select(SIGNED_INFO_COLUMNS)
        .where('event_id', 'in', ids)
        .execute(),
      this.db.selectFrom('esign_audit_events').selectAll().where('event_id', 'in', ids).execute(),
    ]);
    const links = await this.withDocuments(linkRows, { column: 'event_id', values: ids });
    return eventIds.map((eventId) => ({
      links: links.filter((link) => link.eventId === eventId),
      signed: signedRows.filter((row) => row.event_id === eventId).map(signedRowToInfo),
      audit: auditRows.filter((row) => row.event_id === eventId).map(auditRowToEvent),
    }));
  }

  async recordsOfFacility(facilityId: string): Promise<EsignRecords> {
    const [linkRows, signedRows] = await Promise.all([
      this.db.selectFrom('esign_links').selectAll().where('facility_id', '=', facilityId).execute(),
      this.db
        .selectFrom('esign_signed_documents')
        .select(SIGNED_INFO_COLUMNS)
        .where('facility_id', '=', facilityId)
        .execute(),
    ]);
    const links = await this.withDocuments(linkRows, { column: 'facility_id', values: [facilityId] });
    return { links, signed: signedRows.map(signedRowToInfo), audit: [] };
  }

  /** The links' documents, read with a join on the same condition the links were read with. */
  private async withDocuments(
    rows: readonly EsignLinkRow[],
    on: { column: 'message_id' | 'event_id' | 'facility_id'; values: readonly string[] },
  ): Promise<SigningLink[]> {
    if (rows.length === 0) return [];
    const documents = await this.db
      .selectFrom('esign_link_documents as d')
      .innerJoin('esign_links as l', 'l.message_id', 'd.message_id')
      .selectAll('d')
      .where(`l.${on.column}`, 'in', [...on.values])
      .execute();
    const byMessage = new Map<string, EsignLinkDocumentsTable[]>();
    for (const document of documents) {
      const list = byMessage.get(document.message_id) ?? [];
      list.push(document);
      byMessage.set(document.message_id, list);
    }
    return rows.map((row) => linkRowToLink(row, byMessage.get(row.message_id) ?? []));
  }

  private async insertEvents(trx: Transaction<Database>, events: readonly EsignAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await trx.insertInto('esign_audit_events').values(events.map(eventToRow)).execute();
  }
}
