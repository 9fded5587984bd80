import { createHash } from 'node:crypto';
import {
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type {
  KnownDocument,
  TrustedDocument,
  TrustedDocumentsRepository,
} from '../auth/trusted-documents.ports';
import type { TrustedDocumentsMode } from '../config';

/** A document id: SHA-256 in lower-case hex, maybe prefixed `sha256:` (the GraphQL over HTTP draft's form). */
const DOCUMENT_ID = /^(?:sha256:)?([0-9a-f]{64})$/;

/** Documents kept in memory once read from the store (ids are content hashes: a kept text never goes stale). */
const KEPT_DOCUMENTS = 2_000;

/**
 * How long an id the store did not hold is answered as unknown without asking again: an automatic
 * persisted query's hash, sent with every request, costs the store one read per this many ms at
 * most; a manifest loaded meanwhile is answered from then on.
 */
export const MISS_MEMORY_MS = 5_000;
const REMEMBERED_MISSES = 10_000;

export function documentIdOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A refusal answered before Apollo runs, in GraphQL's error shape. */
export interface DocumentRefusal {
  message: string;
  extensions: Record<string, unknown>;
}

/**
 * What the gate decided: a refusal, or the request goes on; `operationNames` are those of the
 * trusted document it runs (null when it runs no trusted document: free text, say).
 */
export type Admission =
  | { refusal: DocumentRefusal; operationNames: null }
  | { refusal: null; operationNames: readonly string[] | null };

const refused = (refusal: DocumentRefusal): Admission => ({ refusal, operationNames: null });
const admitted = (document: KnownDocument | null): Admission => ({
  refusal: null,
  operationNames: document?.operationNames ?? null,
});

interface OperationBody {
  query?: unknown;
  documentId?: unknown;
  extensions?: { persistedQuery?: { sha256Hash?: unknown } };
}

/**
 * The trusted-documents gate of POST /graphql: a `documentId` (or an automatic persisted query's
 * hash) is replaced by the client application's document text before Apollo reads the body; in
 * `require` mode anything else is refused. Apollo then parses and validates the text once per
 * process (its document cache); it was checked in full when loaded.
 */
export class TrustedDocumentGate {
  private readonly kept = new Map<string, KnownDocument>();
  /** Ids the store did not hold, until when they are answered as unknown. */
  private readonly missed = new Map<string, number>();

  constructor(
    readonly mode: TrustedDocumentsMode,
    private readonly documents: TrustedDocumentsRepository,
    /** Milliseconds now, for the memory of misses. */
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the body is the gate's concern: checked first, so free text in `allow` mode waits for nothing. */
  concerns(body: unknown): boolean {
    if (this.mode === 'require') return true;
    if (body === null || typeof body !== 'object') return false;
    const request = body as OperationBody;
    return request.documentId !== undefined || (this.mode === 'allow' && request.query === undefined);
  }

  /** Rewrites the body to carry the document's text, or refuses the request. */
  async admit(clientId: string, body: unknown): Promise<Admission> {
    const decided = this.decide(clientId, body, null);
    if (!('lookup' in decided)) return decided;
    const document = await this.read(clientId, decided.lookup);
    return this.decide(clientId, body, { id: decided.lookup, document }) as Admission;
  }

  /**
   * `admit` without a promise, when memory can decide: the documents read before, and the ids the
   * store did not hold a moment ago (MISS_MEMORY_MS). Null when only the store can say: `admit`
   * then asks it. The same decision either way (one `decide` makes both).
   */
  admitNow(clientId: string, body: unknown): Admission | null {
    const decided = this.decide(clientId, body, null);
    return 'lookup' in decided ? null : decided;
  }

  /**
   * The gate's decision from what memory holds of each id, and what the store answered of the one
   * it was asked (`read`); or the id to ask the store for first.
   */
  private decide(
    clientId: string,
    body: unknown,
    read: { id: string; document: KnownDocument | null } | null,
  ): Admission | StoreLookup {
    const known = (id: string) =>
      read !== null && read.id === id ? read.document : this.known(clientId, id);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return admitted(null);
    const request = body as OperationBody;
    if (request.documentId !== undefined) return this.byDocumentId(request, known);
    if (this.mode === 'off') return admitted(null);
    const hash = request.extensions?.persistedQuery?.sha256Hash;
    if (typeof request.query !== 'string') {
      // An automatic persisted query sent by hash alone: a trusted document of that hash answers it.
      if (typeof hash !== 'string' || !DOCUMENT_ID.test(hash)) return admitted(null);
      const document = known(hash);
      if (document === undefined) return { lookup: hash };
      if (document !== null) request.query = document.body;
      else if (this.mode === 'require') return refused(notFound(hash));
      return admitted(document);
    }
    if (this.mode !== 'require') return admitted(null);
    const id = documentIdOf(request.query);
    const document = known(id);
    if (document === undefined) return { lookup: id };
    if (document !== null) return admitted(document);
    return refused({
      message:
        'This service answers only trusted documents (TRUSTED_DOCUMENTS=require): the operation ' +
        "text sent is not one of this client application's documents (its SHA-256 is the " +
        'documentId in the extensions). Send its ' +
        '"documentId", after loading the manifest with facility-ops documents load.',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', documentId: id },
    });
  }

  private byDocumentId(
    request: OperationBody,
    known: (id: string) => KnownDocument | null | undefined,
  ): Admission | StoreLookup {
    const raw = request.documentId;
    if (this.mode === 'off') {
      return refused({
        message: 'Trusted documents are off here (TRUSTED_DOCUMENTS=off): send the operation as "query".',
        extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' },
      });
    }
    const match = typeof raw === 'string' ? DOCUMENT_ID.exec(raw) : null;
    if (match === null) {
      return refused(
        badRequest(
          '"documentId" must be a SHA-256 in lower-case hex (64 characters), maybe prefixed "sha256:"',
        ),
      );
    }
    if (request.query !== undefined) return refused(badRequest('Send "documentId" or "query", not both.'));
    const document = known(match[1]);
    if (document === undefined) return { lookup: match[1] };
    if (document === null) return refused(notFound(match[1]));
    request.query = document.body;
    delete request.documentId;
    return admitted(document);
  }

  /**
   * What memory holds of an id: its document, null while the store's miss is remembered, or
   * undefined (only the store can say).
   */
  private known(clientId: string, documentId: string): KnownDocument | null | undefined {
    const key = memoryKey(clientId, documentId);
    const kept = this.kept.get(key);
    if (kept !== undefined) return kept;
    const missedUntil = this.missed.get(key);
    if (missedUntil !== undefined && missedUntil > this.now()) return null;
    return undefined;
  }

  /** Asks the store for a document memory holds nothing current of, and remembers the answer. */
  private async read(clientId: string, documentId: string): Promise<KnownDocument | null> {
    const id = documentId.replace(/^sha256:/, '');
    const key = memoryKey(clientId, id);
    const document = await this.documents.find(clientId, id);
    this.missed.delete(key);
    if (document !== null) remember(this.kept, key, document, KEPT_DOCUMENTS);
    else remember(this.missed, key, this.now() + MISS_MEMORY_MS, REMEMBERED_MISSES);
    return document;
  }
}

/** What `admit` must ask the store for before it decides: the document of this id. */
interface StoreLookup {
  readonly lookup: string;
}

/** A document's key in the gate's memory: the client application's, by id (without `sha256:`). */
function memoryKey(clientId: string, documentId: string): string {
  return `${clientId}\n${documentId.replace(/^sha256:/, '')}`;
}

/** Sets a key in a map kept to `most` entries, the oldest first out. */
function remember<V>(map: Map<string, V>, key: string, value: V, most: number): void {
  if (map.size >= most) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

function badRequest(message: string): DocumentRefusal {
  return { message, extensions: { code: 'BAD_REQUEST' } };
}

function notFound(documentId: string): DocumentRefusal {
  return {
    message:
      // The id is in the extensions: messages shorten words as long as a hash.
      'No trusted document of this documentId for this client application: load its manifest ' +
      '(facility-ops documents load --client <client id> <manifest.json>).',
    extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', documentId },
  };
}

/** What checking a manifest found: the documents to keep, or every problem (and then nothing is kept). */
export interface ManifestCheck {
  documents: TrustedDocument[];
  problems: string[];
}

/** Problems shown per document at most (a broken document tends to break many rules at once). */
const PROBLEMS_PER_DOCUMENT = 3;

/**
 * Checks a persisted-documents manifest as GraphQL Code Generator's client preset writes it
 * (`{ "<sha256 hex>": "<document text>" }`): every id is its text's SHA-256, and every document
 * parses and passes validation against the schema (with the service's own rules: limits and the
 * rest), so a document is known good before any request names it.
 */
export function checkManifest(
  text: string,
  schema: GraphQLSchema,
  rules: readonly ValidationRule[],
  options: { maxTokens: number; now: string },
): ManifestCheck {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return { documents: [], problems: [`not JSON (${(error as Error).message})`] };
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    return {
      documents: [],
      problems: ['expected a JSON object of document id (SHA-256 hex) to document text'],
    };
  }
  const entries = Object.entries(manifest);
  if (entries.length === 0) return { documents: [], problems: ['the manifest holds no document'] };
  const documents: TrustedDocument[] = [];
  const problems: string[] = [];
  for (const [key, body] of entries) {
    const shown = key.length > 80 ? `${key.slice(0, 80)}...` : key;
    const match = DOCUMENT_ID.exec(key);
    if (match === null) {
      problems.push(`"${shown}": not a document id (a SHA-256 in lower-case hex)`);
      continue;
    }
    if (typeof body !== 'string' || body.trim() === '') {
      problems.push(`${match[1]}: expected the document's text`);
      continue;
    }
    if (documentIdOf(body) !== match[1]) {
      problems.push(`${match[1]}: is not the SHA-256 of its text (${documentIdOf(body)})`);
      continue;
    }
    let document: DocumentNode;
    try {
      document = parse(body, { maxTokens: options.maxTokens });
    } catch (error) {
      problems.push(`${match[1]}: does not parse: ${(error as GraphQLError).message}`);
      continue;
    }
    const errors = validate(schema, document, [...specifiedRules, ...rules]);
    if (errors.length > 0) {
      for (const error of errors.slice(0, PROBLEMS_PER_DOCUMENT))
        problems.push(`${match[1]}: ${error.message}`);
      if (errors.length > PROBLEMS_PER_DOCUMENT)
        problems.push(`${match[1]}: ... and ${errors.length - PROBLEMS_PER_DOCUMENT} more`);
      continue;
    }
    const operationNames = document.definitions.flatMap((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value ?? ''] : [],
    );
    documents.push({
      documentId: match[1],
      body,
      operationNames: operationNames.filter((name) => name !== ''),
      createdAt: options.now,
    });
  }
  return problems.length > 0 ? { documents: [], problems } : { documents, problems };
}
