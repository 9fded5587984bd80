import type {
  KnownDocument,
  TrustedDocument,
  TrustedDocumentsRepository,
} from '../../auth/trusted-documents.ports';
import type { Db } from '../database';

/** Rows are added per batch of this many (PostgreSQL's parameter limit and SQLite's are far above). */
const INSERT_BATCH = 200;

export class SqlTrustedDocumentsRepository implements TrustedDocumentsRepository {
  constructor(private readonly db: Db) {}

  async find(clientId: string, documentId: string): Promise<KnownDocument | null> {
    const row = await this.db
      .selectFrom('trusted_documents')
      .select(['body', 'operation_names'])
      .where('client_id', '=', clientId)
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    return row ? { body: row.body, operationNames: namesOf(row.operation_names) } : null;
  }

  async list(clientId: string): Promise<TrustedDocument[]> {
    const rows = await this.db
      .selectFrom('trusted_documents')
      .select(['document_id', 'body', 'operation_names', 'created_at'])
      .where('client_id', '=', clientId)
      .orderBy('document_id')
      .execute();
    return rows.map((row) => ({
      documentId: row.document_id,
      body: row.body,
      operationNames: namesOf(row.operation_names),
      createdAt: row.created_at,
    }));
  }

  async add(clientId: string, documents: readonly TrustedDocument[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let start = 0; start < documents.length; start += INSERT_BATCH) {
        const rows = documents.slice(start, start + INSERT_BATCH).map((document) => ({
          client_id: clientId,
          document_id: document.documentId,
          body: document.body,
          operation_names: document.operationNames.join(','),
          created_at: document.createdAt,
        }));
        // An id names one text, so a document already held is the same document.
        const result = await trx
          .insertInto('trusted_documents')
          .values(rows)
          .onConflict((c) => c.columns(['client_id', 'document_id']).doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return added;
    });
  }
}

const namesOf = (stored: string): string[] => (stored === '' ? [] : stored.split(','));
