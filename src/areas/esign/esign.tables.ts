import { bytes, integer, nullable, text, textOf, type TablesOf } from '../../kernel/columns';
import type { OutboxChannel } from '../outbox/outbox.types';

/** What the audit trail records. */
export type EsignAuditKind = 'sent' | 'viewed' | 'signed' | 'revoked';

/** The tables of e-signing (composed into the store's Database). */
export const esignLinks = {
  /** The outbox message that carries the link. */
  message_id: text,
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: text,
  facility_id: text,
  event_id: text,
  channel: textOf<OutboxChannel>(),
  recipient: text,
  created_at: text,
  expires_at: text,
  first_viewed_at: nullable(text),
  revoked_at: nullable(text),
  completed_at: nullable(text),
};

export const esignLinkDocuments = {
  message_id: text,
  document_id: text,
  position: integer,
  description: text,
  /** SHA-256 (hex) of the document's PDF when the link was sent. */
  document_sha256: text,
};

export const esignAuditEvents = {
  id: text,
  message_id: text,
  document_id: text,
  facility_id: text,
  event_id: text,
  kind: textOf<EsignAuditKind>(),
  at: text,
  channel: textOf<OutboxChannel>(),
  recipient: text,
  signer_name: nullable(text),
  ip_address: nullable(text),
  user_agent: nullable(text),
  consent_version: nullable(text),
  document_sha256: nullable(text),
  signed_sha256: nullable(text),
};

export const esignSignedDocuments = {
  document_id: text,
  message_id: text,
  facility_id: text,
  event_id: text,
  signed_at: text,
  filename: text,
  sha256: text,
  pdf: bytes,
};

/** The installation's self-signed certificates that seal signed PDFs, newest generation current. */
export const sealingCertificates = {
  generation: integer,
  /** SHA-256 of the certificate (DER), lower-case hex. */
  fingerprint: text,
  certificate_pem: text,
  /**
   * PKCS#8 PEM, encrypted with SEAL_KEY_PASSPHRASE when one is set, and sealed by the secret box
   * (src/store/secret-columns.ts).
   */
  private_key_pem: text,
  created_at: text,
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const esignTables = {
  esign_links: esignLinks,
  esign_link_documents: esignLinkDocuments,
  esign_audit_events: esignAuditEvents,
  esign_signed_documents: esignSignedDocuments,
  sealing_certificates: sealingCertificates,
};

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof esignTables> {}
}
