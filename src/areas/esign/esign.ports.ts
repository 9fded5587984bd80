import type { Facility } from '../facilities/facilities.types';
import type { RecordOfTable } from '../../kernel/columns';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { DomainEvent } from '../../kernel/domain-events';
import type { SignatureImage, SignatureReading } from './esign.signature';
import type { sealingCertificates } from './esign.tables';
import type {
  EsignAuditEvent,
  EsignRecords,
  EsignState,
  SignedDocument,
  SignedDocumentInfo,
  SigningLink,
} from './esign.types';

/** Why a signing could not be recorded; the transaction wrote nothing. */
export type SigningConflict = 'not_open' | 'already_signed';

/** Where signing links, their audit trail and signed PDFs are kept. */
export interface EsignRepository {
  /**
   * Writes the outbox message, its link (with the SHA-256 of its token), the link's documents,
   * their sent events and the webhook events reporting it in one transaction.
   */
  insertMessageWithLink(
    message: OutboxMessage,
    link: SigningLink,
    tokenHash: string,
    sent: readonly EsignAuditEvent[],
    events?: readonly DomainEvent[],
  ): Promise<void>;
  /** The link whose token has this SHA-256, with its documents. */
  findLinkByTokenHash(tokenHash: string): Promise<SigningLink | undefined>;
  /** The facility's link carried by this message. */
  findLink(facilityId: string, messageId: string): Promise<SigningLink | undefined>;
  /**
   * Marks the link viewed at `at` and writes the viewed events (and the webhook events reporting
   * them), unless it was viewed before (then nothing is written and the answer is false).
   */
  recordFirstView(
    messageId: string,
    at: string,
    viewed: readonly EsignAuditEvent[],
    events?: readonly DomainEvent[],
  ): Promise<boolean>;
  /**
   * In one transaction: completes the link if it is still open at `at` (neither completed, revoked
   * nor expired), writes the signature records and the signed PDFs. Writes nothing and answers the
   * conflict when the link was not open or one of the documents was signed meanwhile.
   */
  recordSigning(
    messageId: string,
    at: string,
    signatures: readonly EsignAuditEvent[],
    signed: readonly SignedDocument[],
    events?: readonly DomainEvent[],
  ): Promise<SigningConflict | null>;
  /** Revokes an open link and writes the revoked events; false when it was revoked or signed before. */
  revoke(messageId: string, at: string, revoked: readonly EsignAuditEvent[]): Promise<boolean>;
  /** The signed PDF of a document, if it was signed. */
  signedDocument(documentId: string): Promise<SignedDocument | undefined>;
  /** Signed documents among these, without their bytes. */
  signedDocuments(documentIds: readonly string[]): Promise<SignedDocumentInfo[]>;
  /** Links, signed documents and audit events of each event, in key order. */
  recordsOfEvents(eventIds: readonly string[]): Promise<EsignRecords[]>;
  /** Links and signed documents of every event of the facility (audit events left out). */
  recordsOfFacility(facilityId: string): Promise<EsignRecords>;
}

/** Where a signature goes on the original: the drawn image, the typed name and when. */
export interface SignaturePlacement {
  signerName: string;
  /** The signing time as the facility reads it, e.g. `2026-11-24 10:05 EST`. */
  signedAtText: string;
  /** The drawn signature, decoded; the certificate shows it too. */
  signature: SignatureImage;
}

/** The certificate page appended to a signed document: the audit trail in words. */
export interface SigningCertificate {
  facilityName: string;
  documentTitle: string;
  documentId: string;
  /** Label and value pairs printed in order (signer, channel, hashes, IP address, ...). */
  details: ReadonlyArray<{ label: string; value: string }>;
  /** The audit trail, oldest first. */
  trail: ReadonlyArray<{ at: string; event: string; details: string }>;
  /** The consent wording the signer agreed to. */
  consent: string;
}

/**
 * Reads drawn signatures off the event loop (a small pool of worker threads): decoding a drawing is
 * CPU work on public input that would otherwise hold every other request.
 */
export interface SignatureReader {
  /**
   * The drawing read from its `data:image/png;base64,...` URL, or 'unavailable' when it could not be
   * read now for reasons of our own (every worker busy and the line full, the deadline passed, the
   * worker failed): nothing was learnt about the drawing.
   */
  read(dataUrl: string): Promise<SignatureReading | 'unavailable'>;
}

/** Places a signature on a PDF and appends its certificate page. */
export interface PdfSigner {
  /** The signed PDF; 'unavailable' when it cannot be made now (its workers busy, failed or out of time). */
  sign(
    original: Buffer,
    placement: SignaturePlacement,
    certificate: SigningCertificate,
  ): Promise<Buffer | 'unavailable'>;
}

/**
 * One of the installation's own sealing certificates, as kept: `generation` 1 for the first, each
 * rotation adds one, the newest seals new files; `privateKeyPem` PKCS#8 PEM, encrypted (`ENCRYPTED
 * PRIVATE KEY`) when a passphrase is configured.
 */
export type StoredSealingKey = RecordOfTable<typeof sealingCertificates>;

/**
 * Where the installation's self-signed sealing certificates are kept, shared by every instance on
 * the database. The private key is read and written only through this pair.
 */
export interface SealingKeysRepository {
  /** The newest generation, if any was made. */
  readSealingKey(): Promise<StoredSealingKey | undefined>;
  /**
   * Inserts `key` unless its generation is taken already (another instance made it first): false
   * then, and nothing is written.
   */
  writeSealingKey(key: StoredSealingKey): Promise<boolean>;
}

/** The event of an e-sign message queued (built by `esign.events.ts`). */
export interface EsignEventBuilders {
  esignSent(facility: Facility, message: OutboxMessage): DomainEvent;
}

/** What the other areas ask of e-sign (`EsignService` implements it). */
export interface EsignStates {
  /** The facility's events whose e-sign status is `state`. */
  eventIdsInState(facility: Facility, state: EsignState): Promise<string[]>;
}
