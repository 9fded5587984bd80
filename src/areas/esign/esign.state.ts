import type {
  EsignAuditEvent,
  EsignRecords,
  EsignState,
  SignedDocumentInfo,
  SigningLink,
} from './esign.types';

/** A link's state at `now` (a stored instant). */
export function linkState(link: SigningLink, now: string): EsignState {
  if (link.completedAt) return 'signed';
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt <= now) return 'expired';
  if (link.firstViewedAt) return 'viewed';
  return 'sent';
}

/** A document's signing: its state, the links that offered it, its signature and audit trail. */
export interface DocumentEsignStatus {
  documentId: string;
  state: EsignState;
  /** Links that offered it, oldest first. */
  links: SigningLink[];
  /** When it was first sent, first viewed (through any link). */
  sentAt: string;
  firstViewedAt: string | null;
  signed: SignedDocumentInfo | null;
  /** Its signature record, when signed. */
  signature: EsignAuditEvent | null;
  /** Oldest first. */
  trail: EsignAuditEvent[];
}

/** The e-sign status of one event's documents and of the event as a whole. */
export interface EventEsignStatus {
  eventId: string;
  /** Null when none of its documents was sent for signing. */
  state: EsignState | null;
  documents: Map<string, DocumentEsignStatus>;
  /** By message id. */
  links: Map<string, SigningLink>;
  /** Each link's state, by message id. */
  linkStates: Map<string, EsignState>;
}

// An unsigned document or event shows its liveliest link: one being looked at, one waiting, then dead ones.
const UNSIGNED_ORDER: readonly EsignState[] = ['viewed', 'sent', 'expired', 'revoked'];

export const KIND_ORDER: Readonly<Record<EsignAuditEvent['kind'], number>> = {
  sent: 0,
  viewed: 1,
  signed: 2,
  revoked: 3,
};

/** Audit events oldest first; at the same instant in the order things happen. */
function byTime(a: EsignAuditEvent, b: EsignAuditEvent): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A document is signed once signed through any link. Otherwise it is viewed or sent while one of
 * its links is still open (viewed wins), and when every link is dead, its newest link says whether
 * it expired or was revoked.
 */
function documentState(links: SigningLink[], signed: SignedDocumentInfo | null, now: string): EsignState {
  if (signed) return 'signed';
  const states = links.map((link) => linkState(link, now));
  if (states.includes('viewed')) return 'viewed';
  if (states.includes('sent')) return 'sent';
  const newest = states[states.length - 1];
  return newest === 'revoked' ? 'revoked' : 'expired';
}

/** The status of one event's signing from what was recorded about it, at `now`. */
export function eventEsignStatus(eventId: string, records: EsignRecords, now: string): EventEsignStatus {
  const links = [...records.links].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.messageId < b.messageId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
  );
  const signedById = new Map(records.signed.map((s) => [s.documentId, s]));
  const documentIds = [...new Set(links.flatMap((link) => link.documents.map((d) => d.documentId)))];
  const documents = new Map<string, DocumentEsignStatus>();
  for (const documentId of documentIds) {
    const offering = links.filter((link) => link.documents.some((d) => d.documentId === documentId));
    const trail = records.audit.filter((e) => e.documentId === documentId).sort(byTime);
    const viewed = offering
      .map((l) => l.firstViewedAt)
      .filter((at): at is string => at !== null)
      .sort();
    const signed = signedById.get(documentId) ?? null;
    documents.set(documentId, {
      documentId,
      state: documentState(offering, signed, now),
      links: offering,
      sentAt: offering[0].createdAt,
      firstViewedAt: viewed[0] ?? null,
      signed,
      signature: trail.find((e) => e.kind === 'signed') ?? null,
      trail,
    });
  }
  const states = [...documents.values()].map((d) => d.state);
  let state: EsignState | null = null;
  if (states.length > 0) {
    state = states.every((s) => s === 'signed')
      ? 'signed'
      : (UNSIGNED_ORDER.find((candidate) => states.includes(candidate)) ?? null);
  }
  return {
    eventId,
    state,
    documents,
    links: new Map(links.map((link) => [link.messageId, link])),
    linkStates: new Map(links.map((link) => [link.messageId, linkState(link, now)])),
  };
}

/** Splits a facility's records by event. */
export function recordsByEvent(records: EsignRecords): Map<string, EsignRecords> {
  const byEvent = new Map<string, EsignRecords>();
  const of = (eventId: string) => {
    let entry = byEvent.get(eventId);
    if (!entry) {
      entry = { links: [], signed: [], audit: [] };
      byEvent.set(eventId, entry);
    }
    return entry;
  };
  for (const link of records.links) of(link.eventId).links.push(link);
  for (const signed of records.signed) of(signed.eventId).signed.push(signed);
  for (const event of records.audit) of(event.eventId).audit.push(event);
  return byEvent;
}
