import type { Transaction } from 'kysely';
import type { EsignRepository, SigningConflict } from './esign.ports';
import { esignAuditEvents, esignLinkDocuments, esignLinks, esignSignedDocuments } from './esign.tables';
import type {
  EsignAuditEvent,
  EsignRecords,
  SignedDocument,
  SignedDocumentInfo,
  SigningLink,
} from './esign.types';
import type { OutboxRows } from '../outbox/outbox.ports';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { SignedPdfs } from '../documents/pdf.ports';
import type { RenderedPdf } from '../documents/pdf.types';
import type { Db, StoreEvents } from '../../store/database';
import { rowCodec } from '../../store/rows';
import type {
  Database,
  EsignLinkDocumentsTable,
  EsignLinksTable,
  OutboxMessagesTable,
} from '../../store/schema';
import type { DomainEvent } from '../../kernel/domain-events';

/** A link's columns but its token's hash, which only finds it. */
const linkColumns = rowCodec(esignLinks, ['token_hash']);
/** A link's document as the link offers it; the message it belongs to and its place are the link's. */
const linkDocumentColumns = rowCodec(esignLinkDocuments, ['message_id', 'position']);
const auditColumns = rowCodec(esignAuditEvents);
/** A signed document's columns but its PDF, read only where it is downloaded. */
const signedInfoColumns = rowCodec(esignSignedDocuments, ['pdf']);
const signedColumns = rowCodec(esignSignedDocuments);

/** Thrown inside a transaction to roll it back with a conflict to report. */
class Conflict extends Error {
  constructor(readonly conflict: SigningConflict) {
    super(conflict);
  }
}

/** Signing links, their audit trail and signed PDFs, on SQLite and PostgreSQL. */
export class SqlEsignRepository implements EsignRepository, SignedPdfs {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
    /** The outbox's rows: a link's message is written with the link. */
    private readonly outboxRows: OutboxRows<OutboxMessagesTable>,
  ) {}

  async insertMessageWithLink(
    message: OutboxMessage,
    link: SigningLink,
    tokenHash: string,
    sent: readonly EsignAuditEvent[],
    events: readonly DomainEvent[] = [],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('outbox_messages').values(this.outboxRows.write(message)).execute();
      await trx
        .insertInto('esign_links')
        .values({ ...linkColumns.write(link), token_hash: tokenHash })
        .execute();
      await trx
        .insertInto('esign_link_documents')
        .values(
          link.documents.map((d, position) => ({
            ...linkDocumentColumns.write(d),
            message_id: link.messageId,
            position,
          })),
        )
        .execute();
      await this.insertEvents(trx, sent);
      await this.events.publish(trx, events);
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
    events: readonly DomainEvent[] = [],
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
      await this.events.publish(trx, events);
      return true;
    });
  }

  async recordSigning(
    messageId: string,
    at: string,
    signatures: readonly EsignAuditEvent[],
    signed: readonly SignedDocument[],
    events: readonly DomainEvent[] = [],
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
            .values(signed.map(signedColumns.write))
            .onConflict((oc) => oc.column('document_id').doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== signed.length) {
            throw new Conflict('already_signed');
          }
        }
        await this.insertEvents(trx, signatures);
        await this.events.publish(trx, events);
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
    return row ? { ...signedInfoColumns.read(row), pdf: Buffer.from(row.pdf) } : undefined;
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
      .select(signedInfoColumns.columns)
      .where('document_id', 'in', [...new Set(documentIds)])
      .execute();
    return rows.map(signedInfoColumns.read);
  }

  async recordsOfEvents(eventIds: readonly string[]): Promise<EsignRecords[]> {
    if (eventIds.length === 0) return [];
    const ids = [...new Set(eventIds)];
    const [linkRows, signedRows, auditRows] = await Promise.all([
      this.db.selectFrom('esign_links').selectAll().where('event_id', 'in', ids).execute(),
      this.db
        .selectFrom('esign_signed_documents')
        .select(signedInfoColumns.columns)
        .where('event_id', 'in', ids)
        .execute(),
      this.db.selectFrom('esign_audit_events').selectAll().where('event_id', 'in', ids).execute(),
    ]);
    const links = await this.withDocuments(linkRows, { column: 'event_id', values: ids });
    return eventIds.map((eventId) => ({
      links: links.filter((link) => link.eventId === eventId),
      signed: signedRows.filter((row) => row.event_id === eventId).map(signedInfoColumns.read),
      audit: auditRows.filter((row) => row.event_id === eventId).map(auditColumns.read),
    }));
  }

  async recordsOfFacility(facilityId: string): Promise<EsignRecords> {
    const [linkRows, signedRows] = await Promise.all([
      this.db.selectFrom('esign_links').selectAll().where('facility_id', '=', facilityId).execute(),
      this.db
        .selectFrom('esign_signed_documents')
        .select(signedInfoColumns.columns)
        .where('facility_id', '=', facilityId)
        .execute(),
    ]);
    const links = await this.withDocuments(linkRows, { column: 'facility_id', values: [facilityId] });
    return { links, signed: signedRows.map(signedInfoColumns.read), audit: [] };
  }

  /** The links' documents, read with a join on the same condition the links were read with. */
  private async withDocuments(
    rows: readonly EsignLinksTable[],
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
    return rows.map((row) => ({
      ...linkColumns.read(row),
      documents: (byMessage.get(row.message_id) ?? [])
        .sort((a, b) => Number(a.position) - Number(b.position))
        .map(linkDocumentColumns.read),
    }));
  }

  private async insertEvents(trx: Transaction<Database>, events: readonly EsignAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await trx.insertInto('esign_audit_events').values(events.map(auditColumns.write)).execute();
  }
}
