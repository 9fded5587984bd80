import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * E-sign signing: each e-sign message carries one link to a public signing page.
 *
 * - `esign_links`: one per outbox message (its id is the message's), holding only the SHA-256 of the
 *   link's token, who it was sent to, when it expires, and when it was first viewed, revoked or signed.
 * - `esign_link_documents`: the documents a link offers, each with the SHA-256 of its PDF as sent, so
 *   a document changed since cannot be signed through the link.
 * - `esign_audit_events`: the audit trail, one row per document and event (sent, viewed, signed,
 *   revoked); a signed row is the signature record (name, channel, recipient, IP address, user
 *   agent, SHA-256 of the document shown and of the signed file). A document is signed once.
 * - `esign_signed_documents`: the signed PDF of each signed document, which downloads answer from then on.
 *
 * Deleting an outbox message deletes its link and everything that hangs off it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = isPostgres(db) ? 'bytea' : 'blob';

  await db.schema
    .createTable('esign_links')
    .addColumn('message_id', 'text', (c) =>
      c.primaryKey().references('outbox_messages.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('first_viewed_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('esign_links_event').on('esign_links').column('event_id').execute();
  await db.schema
    .createIndex('esign_links_facility')
    .on('esign_links')
    .columns(['facility_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('esign_link_documents')
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('esign_links.message_id').onDelete('cascade'),
    )
    .addColumn('document_id', 'text', (c) => c.notNull().references('event_documents.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('document_sha256', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('esign_link_documents_pk', ['message_id', 'document_id'])
    .execute();
  await db.schema
    .createIndex('esign_link_documents_document')
    .on('esign_link_documents')
    .column('document_id')
    .execute();

  await db.schema
    .createTable('esign_audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('esign_links.message_id').onDelete('cascade'),
    )
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('signer_name', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('consent_version', 'text')
    .addColumn('document_sha256', 'text')
    .addColumn('signed_sha256', 'text')
    .execute();
  await db.schema
    .createIndex('esign_audit_events_event')
    .on('esign_audit_events')
    .columns(['event_id', 'at'])
    .execute();
  await db.schema
    .createIndex('esign_audit_events_message')
    .on('esign_audit_events')
    .column('message_id')
    .execute();
  // One signature per document, whichever link signs it and however many submits arrive at once.
  await db.schema
    .createIndex('esign_audit_events_signed_once')
    .on('esign_audit_events')
    .column('document_id')
    .unique()
    .where(sql.ref('kind'), '=', sql.lit('signed'))
    .execute();

  await db.schema
    .createTable('esign_signed_documents')
    .addColumn('document_id', 'text', (c) => c.primaryKey().references('event_documents.id'))
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('esign_links.message_id').onDelete('cascade'),
    )
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('pdf', bytes, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('esign_signed_documents_event')
    .on('esign_signed_documents')
    .column('event_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'esign_signed_documents',
    'esign_audit_events',
    'esign_link_documents',
    'esign_links',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
