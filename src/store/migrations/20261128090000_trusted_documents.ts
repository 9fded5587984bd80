import type { Kysely } from 'kysely';

/**
 * Trusted documents: the GraphQL operations a client application's front end is known to send
 * (`facility-ops documents load`), by their document id (the SHA-256 of the text, lower-case hex).
 * Parsed and validated when loaded; a document never changes under its id, so rows are only added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trusted_documents')
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('client_applications.id').onDelete('cascade'),
    )
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('operation_names', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trusted_documents_pkey', ['client_id', 'document_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trusted_documents').execute();
}
