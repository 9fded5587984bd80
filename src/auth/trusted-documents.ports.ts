/** One trusted GraphQL document of a client application, as loaded and checked. */
export interface TrustedDocument {
  /** SHA-256 of `body`, lower-case hex. */
  documentId: string;
  body: string;
  /** The names of its operations (empty for an anonymous operation). */
  operationNames: string[];
  createdAt: string;
}

/** What answering a request by a trusted document needs. */
export interface KnownDocument {
  body: string;
  operationNames: readonly string[];
}

/** Where client applications' trusted documents are kept (`facility-ops documents load`). */
export interface TrustedDocumentsRepository {
  /** The document's text and operation names, or null when the client has no document of that id. */
  find(clientId: string, documentId: string): Promise<KnownDocument | null>;
  /** The client's documents, by id. */
  list(clientId: string): Promise<TrustedDocument[]>;
  /** Adds the documents the client does not hold yet, all or none; answers how many were new. */
  add(clientId: string, documents: readonly TrustedDocument[]): Promise<number>;
}
