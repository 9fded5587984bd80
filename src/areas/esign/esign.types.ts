import type { OutboxChannel } from '../outbox/outbox.types';

/**
 * Where a document (or a link, or an event) is in its signing: its link was sent, the page was
 * opened, it was signed, or its link expired or was revoked before it was signed.
 */
export type EsignState = 'sent' | 'viewed' | 'signed' | 'expired' | 'revoked';

export const ESIGN_STATES: readonly EsignState[] = ['sent', 'viewed', 'signed', 'expired', 'revoked'];

/** What the audit trail records. */
export type EsignAuditKind = 'sent' | 'viewed' | 'signed' | 'revoked';

/** A document a signing link offers, as it was when the link was sent. */
export interface SigningLinkDocument {
  documentId: string;
  description: string;
  /** SHA-256 (hex) of the document's PDF when the link was sent: what the signer is shown. */
  documentSha256: string;
}

/**
 * The link of one e-sign message (`/sign/<token>`): bound to the message, its recipient and its
 * documents. Only the token's hash is kept. Instants are stored UTC instants.
 */
export interface SigningLink {
  /** The outbox message carrying the link; also the link's id. */
  messageId: string;
  facilityId: string;
  eventId: string;
  channel: OutboxChannel;
  recipient: string;
  createdAt: string;
  expiresAt: string;
  firstViewedAt: string | null;
  revokedAt: string | null;
  /** When its documents were signed through it. */
  completedAt: string | null;
  /** In the order the message lists them. */
  documents: SigningLinkDocument[];
}

/** One line of a document's audit trail. */
export interface EsignAuditEvent {
  id: string;
  messageId: string;
  documentId: string;
  facilityId: string;
  eventId: string;
  kind: EsignAuditKind;
  at: string;
  channel: OutboxChannel;
  recipient: string;
  /** Signed: the typed full name. */
  signerName: string | null;
  /** Viewed and signed: where the page was opened or submitted from. */
  ipAddress: string | null;
  userAgent: string | null;
  /** Signed: the version of the consent wording the signer agreed to. */
  consentVersion: string | null;
  /** Sent, viewed and signed: SHA-256 of the document's PDF shown. */
  documentSha256: string | null;
  /** Signed: SHA-256 of the signed PDF. */
  signedSha256: string | null;
}

/** A signed document without its bytes. */
export interface SignedDocumentInfo {
  documentId: string;
  messageId: string;
  facilityId: string;
  eventId: string;
  signedAt: string;
  filename: string;
  sha256: string;
}

/** A signed document's PDF: the original with the signature placed, and a certificate page. */
export interface SignedDocument extends SignedDocumentInfo {
  pdf: Buffer;
}

/** Everything recorded about the signing of some events' documents. */
export interface EsignRecords {
  links: SigningLink[];
  signed: SignedDocumentInfo[];
  audit: EsignAuditEvent[];
}

/** Who opened or submitted the page. */
export interface Viewer {
  ipAddress: string;
  userAgent: string | null;
}

/** The signing form as the page sends it. */
export interface SignCommand {
  /** The typed full name. */
  name: string;
  /** Whether the consent to sign electronically was given. */
  consent: boolean;
  /** The drawn signature as a `data:image/png;base64,...` URL. */
  signature: string;
}
