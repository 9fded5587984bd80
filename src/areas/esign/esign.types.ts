import type {
  esignAuditEvents,
  EsignAuditKind,
  esignLinkDocuments,
  esignLinks,
  esignSignedDocuments,
} from './esign.tables';
import type { RecordOfTable } from '../../kernel/columns';

/**
 * Where a document (or a link, or an event) is in its signing: its link was sent, the page was
 * opened, it was signed, or its link expired or was revoked before it was signed.
 */
export type EsignState = 'sent' | 'viewed' | 'signed' | 'expired' | 'revoked';

export const ESIGN_STATES: readonly EsignState[] = ['sent', 'viewed', 'signed', 'expired', 'revoked'];

export type { EsignAuditKind };

/** A document a signing link offers, as it was when the link was sent. */
export type SigningLinkDocument = RecordOfTable<typeof esignLinkDocuments, 'message_id' | 'position'>;

/**
 * The link of one e-sign message (`/sign/<token>`): bound to the message (`messageId`, also the
 * link's id), its recipient and its documents (in the order the message lists them). Only the
 * token's hash is kept. Instants are stored UTC instants.
 */
export type SigningLink = RecordOfTable<typeof esignLinks, 'token_hash'> & {
  documents: SigningLinkDocument[];
};

/**
 * One line of a document's audit trail: `signerName` and `consentVersion` when signed, where the
 * page was opened or submitted from when viewed and signed, the SHA-256 of the document's PDF shown
 * and (signed) of the signed PDF.
 */
export type EsignAuditEvent = RecordOfTable<typeof esignAuditEvents>;

/** A signed document without its bytes. */
export type SignedDocumentInfo = RecordOfTable<typeof esignSignedDocuments, 'pdf'>;

/** A signed document's PDF: the original with the signature placed, and a certificate page. */
export type SignedDocument = RecordOfTable<typeof esignSignedDocuments>;

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
