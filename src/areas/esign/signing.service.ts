import { setImmediate as nextTurn } from 'node:timers/promises';
import { DomainError } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { RenderedDocument, RenderedPdf } from '../documents/pdf.types';
import type { Clock } from '../../kernel/clock';
import type { DocumentEvents, OriginalDocuments } from '../documents/documents.ports';
import { isUuid, normalizeId } from '../../kernel/ids';
import { formatInstant, toStoredInstant } from '../../kernel/time';
import { CONSENT_VERSION, consentText } from './esign.consent';
import type { EsignRepository, PdfSigner, SignatureReader, SigningCertificate } from './esign.ports';
import { auditEvent } from './esign.service';
import {
  SIGNATURE_MAX_HEIGHT,
  SIGNATURE_MAX_WIDTH,
  type SignatureImage,
  type SignatureReading,
} from './esign.signature';
import { WorkSlots } from './esign.slots';
import { hasTokenShape, sha256Hex, tokenHash } from './esign.tokens';
import type {
  EsignAuditEvent,
  SignCommand,
  SignedDocument,
  SignedDocumentInfo,
  SigningLink,
  Viewer,
} from './esign.types';

/** The longest full name taken. */
export const MAX_SIGNER_NAME = 200;
const MAX_USER_AGENT = 512;

/** Why a link cannot be used; each is a page telling the signer what to do. */
export type LinkRefusal =
  /** No such link: mistyped, cut short or made up. */
  | { kind: 'unknown' }
  | { kind: 'expired'; facility: Facility; expiresAt: string }
  | { kind: 'revoked'; facility: Facility }
  /** A document changed (or went away) after the link was sent: what was sent can no longer be signed. */
  | { kind: 'replaced'; facility: Facility };

/** A document on the signing page. */
export interface PageDocument {
  id: string;
  title: string;
  /** The text its PDF shows; blank lines separate paragraphs. */
  body: string;
  filename: string;
  sizeBytes: number;
  /** Set when it was signed already (through another message's link); it is then not signed again. */
  signed: SignedDocumentInfo | null;
}

/** The page of a link that can be signed. */
export interface OpenLink {
  kind: 'open';
  facility: Facility;
  link: SigningLink;
  documents: PageDocument[];
  /** The name the documents are addressed to (their event's tenant): the name field starts with it. */
  addressee: string | null;
}

/** The page of a link whose documents are signed. */
export interface CompletedLink {
  kind: 'completed';
  facility: Facility;
  link: SigningLink;
  /** Whether its signed copies can still be downloaded through it (until it expires). */
  downloadable: boolean;
  signerName: string | null;
  signedAt: string;
  documents: Array<{ id: string; title: string; filename: string }>;
}

/** A field of the form and what is wrong with it. */
export interface FormProblem {
  field: 'name' | 'consent' | 'signature';
  message: string;
}

export type SignOutcome =
  | LinkRefusal
  | { kind: 'invalid'; problems: FormProblem[]; page: OpenLink }
  | { kind: 'already_signed'; facility: Facility }
  /**
   * Too many submissions are being worked on, or the drawing's worker failed: nothing was done, try
   * again shortly.
   */
  | { kind: 'busy' }
  | { kind: 'signed' };

/** A link that can be signed now, and its facility. */
interface Usable {
  facility: Facility;
  link: SigningLink;
}

type Resolved = LinkRefusal | CompletedLink | ({ kind: 'usable' } & Usable);

/** A submission that passed the form's checks, and who sent it. */
interface Signing {
  at: string;
  /** The typed name, its spacing tidied. */
  name: string;
  signature: SignatureImage;
  viewer: { ipAddress: string; userAgent: string | null };
}

interface Pending {
  document: RenderedDocument;
  shownSha256: string;
}

/** A stored instant as the facility's people read it: `2026-11-24 10:05:00 (UTC-05:00)`. */
export function readableInstant(stored: string, zone: string): string {
  const local = formatInstant(stored.replace(/\.\d+Z$/, 'Z'), zone);
  return `${local.slice(0, 10)} ${local.slice(11, 19)} (UTC${local.slice(19)})`;
}

/**
 * The public signing page's work (DESIGN 10): a link's token opens its documents, records the first
 * view, and signs every document at once, placing the signature on each PDF with a certificate page.
 * Outcomes are values, each a page the transport shows; nothing here needs API credentials.
 */
export class SigningService {
  /**
   * Submissions of usable links worked on at once (decoding the drawing, rendering and signing the
   * PDFs), and how many more may wait, each for at most 30 s: a flood of them keeps to two turns of
   * the event loop's time.
   */
  private readonly submissions = new WorkSlots(2, 16, 30_000);

  constructor(
    private readonly repository: EsignRepository,
    private readonly documentPdfs: OriginalDocuments,
    private readonly facilities: { facilitiesByIds(ids: readonly string[]): Promise<(Facility | null)[]> },
    private readonly messages: { messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]> },
    private readonly signer: PdfSigner,
    /** Decodes the drawings, off the event loop. */
    private readonly signatures: SignatureReader,
    private readonly clock: Clock,
    /** Writes `document.viewed` and `document.signed`; none when absent. */
    private readonly events?: DocumentEvents,
  ) {}

  /** The page a link shows; opening a usable link records its first view. */
  async open(token: string, viewer: Viewer): Promise<LinkRefusal | OpenLink | CompletedLink> {
    const resolved = await this.resolve(token);
    if (resolved.kind !== 'usable') return resolved;
    const page = await this.pageOf(resolved.facility, resolved.link);
    if (page.kind !== 'open') return page;
    if (!resolved.link.firstViewedAt) {
      const at = toStoredInstant(this.clock.now());
      const viewed = page.documents
        .filter((d) => !d.signed)
        .map((d) =>
          auditEvent(resolved.link, d.id, 'viewed', at, {
            ...viewerDetails(viewer),
            documentSha256: shownHash(resolved.link, d.id),
          }),
        );
      const events = await this.events?.aboutDocuments(
        resolved.facility,
        resolved.link,
        viewed.map((v) => ({ kind: 'viewed' as const, documentId: v.documentId, at })),
      );
      if (await this.repository.recordFirstView(resolved.link.messageId, at, viewed, events)) {
        page.link = { ...page.link, firstViewedAt: at };
        this.events?.announce();
      }
    }
    return page;
  }

  /**
   * One of the link's documents as a PDF: its signed copy once signed, else the document as sent.
   * Null when the id is not one of the link's documents.
   */
  async documentPdf(token: string, documentId: string): Promise<LinkRefusal | RenderedPdf | null> {
    const resolved = await this.resolve(token);
    if (resolved.kind === 'completed') {
      if (!resolved.downloadable) {
        return { kind: 'expired', facility: resolved.facility, expiresAt: resolved.link.expiresAt };
      }
    } else if (resolved.kind !== 'usable') {
      return resolved;
    }
    const link = resolved.link;
    const id = isUuid(documentId) ? normalizeId(documentId) : null;
    if (!id || !link.documents.some((d) => d.documentId === id)) return null;
    const signed = await this.repository.signedDocument(id);
    if (signed) return { filename: signed.filename, content: signed.pdf };
    const original = await this.original(resolved.facility, link, id);
    if (!original) return { kind: 'replaced', facility: resolved.facility };
    return { filename: original.document.filename, content: original.document.content };
  }

  /**
   * Signs every document of the link not signed yet, at once: a signature record per document and
   * its signed PDF (the original with the drawn signature and the name placed on its last page, and
   * a certificate page with the audit trail), in one transaction. A second submit, or two at once,
   * sign once; a refused submit writes nothing. The work on a usable link's submission takes one of
   * a few turns (WorkSlots); when every turn and place in line is taken it is 'busy', as it is when
   * the drawing could not be read now (the signature workers busy, failed or out of time).
   */
  async sign(token: string, command: SignCommand, viewer: Viewer): Promise<SignOutcome> {
    const resolved = await this.resolve(token);
    if (resolved.kind === 'completed') return { kind: 'already_signed', facility: resolved.facility };
    if (resolved.kind !== 'usable') return resolved;
    const outcome = await this.submissions.run(() => this.signUsable(token, resolved, command, viewer));
    return outcome === 'busy' ? { kind: 'busy' } : outcome;
  }

  private async signUsable(
    token: string,
    usable: Usable,
    command: SignCommand,
    viewer: Viewer,
  ): Promise<SignOutcome> {
    const { facility, link } = usable;
    const form = await readForm(command, this.signatures);
    if (form === 'unavailable') return { kind: 'busy' };
    if (!form.ok) {
      const page = await this.pageOf(facility, link);
      if (page.kind === 'completed') return { kind: 'already_signed', facility };
      if (page.kind !== 'open') return page;
      return { kind: 'invalid', problems: form.problems, page };
    }
    const pending = await this.unsignedOriginals(facility, link);
    if (pending === null) return { kind: 'replaced', facility };
    if (pending.length === 0) return { kind: 'already_signed', facility };
    const at = toStoredInstant(this.clock.now());
    const each = await this.signEach(usable, pending, {
      at,
      name: form.name,
      signature: form.signature,
      viewer: viewerDetails(viewer),
    });
    // The PDF workers busy, failed or out of time: nothing is written, the signer may try again.
    if (each === 'unavailable') return { kind: 'busy' };
    const { signatures, signed } = each;
    return this.recordSigning(token, usable, at, signatures, signed);
  }

  /** The documents of the link not signed yet, each as it was sent; null when one of them changed. */
  private async unsignedOriginals(facility: Facility, link: SigningLink): Promise<Pending[] | null> {
    const signedBefore = new Set(
      (await this.repository.signedDocuments(link.documents.map((d) => d.documentId))).map(
        (s) => s.documentId,
      ),
    );
    const pending: Pending[] = [];
    for (const { documentId } of link.documents) {
      if (signedBefore.has(documentId)) continue;
      const original = await this.original(facility, link, documentId);
      if (!original) return null;
      pending.push(original);
    }
    return pending;
  }

  /** Each pending document signed, in turn: its signed PDF and the `signed` audit event naming it. */
  private async signEach(
    { facility, link }: Usable,
    pending: readonly Pending[],
    signing: Signing,
  ): Promise<{ signatures: EsignAuditEvent[]; signed: SignedDocument[] } | 'unavailable'> {
    const [message] = await this.messages.messagesByIds([link.messageId]);
    const [records] = await this.repository.recordsOfEvents([link.eventId]);
    const signatures: EsignAuditEvent[] = [];
    const signed: SignedDocument[] = [];
    for (const { document, shownSha256 } of pending) {
      await nextTurn();
      const trail = records.audit.filter((e) => e.documentId === document.id);
      const pdf = await this.signer.sign(
        document.content,
        {
          signerName: signing.name,
          signedAtText: readableInstant(signing.at, facility.timeZone),
          signature: signing.signature,
        },
        certificateOf({ facility, link }, document, shownSha256, signing, {
          trail,
          message: message ?? null,
        }),
      );
      if (pdf === 'unavailable') return pdf;
      const signedSha256 = sha256Hex(pdf);
      signatures.push(
        auditEvent(link, document.id, 'signed', signing.at, {
          ...signing.viewer,
          signerName: signing.name,
          consentVersion: CONSENT_VERSION,
          documentSha256: shownSha256,
          signedSha256,
        }),
      );
      signed.push({
        documentId: document.id,
        messageId: link.messageId,
        facilityId: facility.id,
        eventId: link.eventId,
        signedAt: signing.at,
        filename: document.filename.replace(/\.pdf$/, '-signed.pdf'),
        sha256: signedSha256,
        pdf,
      });
    }
    return { signatures, signed };
  }

  /** The signatures and signed copies written in one transaction, unless the link moved on meanwhile. */
  private async recordSigning(
    token: string,
    { facility, link }: Usable,
    at: string,
    signatures: EsignAuditEvent[],
    signed: SignedDocument[],
  ): Promise<SignOutcome> {
    const events = await this.events?.aboutDocuments(
      facility,
      link,
      signatures.map((s) => ({
        kind: 'signed' as const,
        documentId: s.documentId,
        at,
        signerName: s.signerName,
        signedSha256: s.signedSha256,
      })),
    );
    const conflict = await this.repository.recordSigning(link.messageId, at, signatures, signed, events);
    if (conflict === 'already_signed') return { kind: 'already_signed', facility };
    if (conflict === 'not_open') {
      // Signed, revoked or expired while this submit was being prepared: say which.
      const now = await this.resolve(token);
      if (now.kind === 'completed' || now.kind === 'usable') return { kind: 'already_signed', facility };
      return now;
    }
    this.events?.announce();
    return { kind: 'signed' };
  }

  /** The link of a token and whether it can be used now. */
  private async resolve(token: string): Promise<Resolved> {
    if (!hasTokenShape(token)) return { kind: 'unknown' };
    const link = await this.repository.findLinkByTokenHash(tokenHash(token));
    if (!link) return { kind: 'unknown' };
    const [facility] = await this.facilities.facilitiesByIds([link.facilityId]);
    if (!facility) return { kind: 'unknown' };
    const now = toStoredInstant(this.clock.now());
    const expired = link.expiresAt <= now;
    if (link.completedAt) return this.completed(facility, link, !expired);
    if (link.revokedAt) return { kind: 'revoked', facility };
    if (expired) return { kind: 'expired', facility, expiresAt: link.expiresAt };
    return { kind: 'usable', facility, link };
  }

  private async completed(
    facility: Facility,
    link: SigningLink,
    downloadable: boolean,
  ): Promise<CompletedLink> {
    const signed = await this.repository.signedDocuments(link.documents.map((d) => d.documentId));
    const [records] = await this.repository.recordsOfEvents([link.eventId]);
    const signature = records.audit.find((e) => e.kind === 'signed' && e.messageId === link.messageId);
    const byId = new Map(signed.map((s) => [s.documentId, s]));
    return {
      kind: 'completed',
      facility,
      link,
      downloadable,
      signerName: signature?.signerName ?? null,
      signedAt: link.completedAt ?? signed.map((s) => s.signedAt).sort()[0],
      documents: link.documents.map((d) => ({
        id: d.documentId,
        title: d.description,
        filename: byId.get(d.documentId)?.filename ?? 'document-signed.pdf',
      })),
    };
  }

  /** The page of a usable link: its documents as sent, or a refusal when one of them changed. */
  private async pageOf(
    facility: Facility,
    link: SigningLink,
  ): Promise<LinkRefusal | OpenLink | CompletedLink> {
    const signed = await this.repository.signedDocuments(link.documents.map((d) => d.documentId));
    const signedById = new Map(signed.map((s) => [s.documentId, s]));
    if (link.documents.every((d) => signedById.has(d.documentId))) {
      const page = await this.completed(facility, link, true);
      return { ...page, signedAt: signed.map((s) => s.signedAt).sort()[signed.length - 1] };
    }
    const documents: PageDocument[] = [];
    let addressee: string | null = null;
    for (const { documentId, description } of link.documents) {
      const done = signedById.get(documentId) ?? null;
      if (done) {
        documents.push({
          id: documentId,
          title: description,
          body: '',
          filename: done.filename,
          sizeBytes: 0,
          signed: done,
        });
        continue;
      }
      const original = await this.original(facility, link, documentId);
      if (!original) return { kind: 'replaced', facility };
      const { document } = original;
      addressee ??= document.tenantName;
      documents.push({
        id: documentId,
        title: document.title,
        body: document.body,
        filename: document.filename,
        sizeBytes: document.content.length,
        signed: null,
      });
    }
    return { kind: 'open', facility, link, documents, addressee };
  }

  /** The document rendered now, when it is still what the link sent (same PDF bytes); else null. */
  private async original(facility: Facility, link: SigningLink, documentId: string): Promise<Pending | null> {
    const expected = shownHash(link, documentId);
    // A turn of the event loop before each rendering, so a page of many documents never holds it long.
    await nextTurn();
    let document: RenderedDocument;
    try {
      document = await this.documentPdfs.originalDocument(facility, documentId);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return null;
      throw error;
    }
    const shownSha256 = sha256Hex(document.content);
    return shownSha256 === expected ? { document, shownSha256 } : null;
  }
}

/**
 * The submitted form checked: the tidied name and the decoded drawing, or every problem found
 * (the name, the consent, then the drawing, which is always read).
 */
async function readForm(
  command: SignCommand,
  signatures: SignatureReader,
): Promise<
  | { ok: true; name: string; signature: SignatureImage }
  | { ok: false; problems: FormProblem[] }
  | 'unavailable'
> {
  const problems: FormProblem[] = [];
  const name = command.name.replace(/\s+/g, ' ').trim();
  if (name === '') problems.push({ field: 'name', message: 'Type your full name.' });
  else if ([...name].length > MAX_SIGNER_NAME) {
    problems.push({ field: 'name', message: `Your name can be at most ${MAX_SIGNER_NAME} characters.` });
  }
  if (!command.consent) {
    problems.push({ field: 'consent', message: 'Tick the box to agree to sign electronically.' });
  }
  const reading = await signatures.read(command.signature);
  if (reading === 'unavailable') return reading;
  if (!reading.ok) problems.push({ field: 'signature', message: signatureProblem(reading) });
  if (problems.length > 0 || !reading.ok) return { ok: false, problems };
  return { ok: true, name, signature: reading.image };
}

/** The certificate page of one signed document: who, when, how it was sent, the hashes, the trail. */
function certificateOf(
  { facility, link }: Usable,
  document: RenderedDocument,
  shownSha256: string,
  signing: Signing,
  history: { trail: readonly EsignAuditEvent[]; message: OutboxMessage | null },
): SigningCertificate {
  const signedAt = readableInstant(signing.at, facility.timeZone);
  return {
    facilityName: facility.name,
    documentTitle: document.title,
    documentId: document.id,
    details: [
      { label: 'Signed by', value: signedByText(signing.name, document.tenantName) },
      { label: 'Signed at', value: signedAt },
      {
        label: 'Sent to',
        value: `${link.recipient} (${link.channel === 'email' ? 'email' : 'text message'})`,
      },
      { label: 'IP address', value: signing.viewer.ipAddress },
      { label: 'User agent', value: signing.viewer.userAgent ?? 'not given' },
      { label: 'Consent', value: `given (wording ${CONSENT_VERSION}, printed below)` },
      { label: 'Document', value: `${document.title} (${document.id})` },
      { label: 'SHA-256 of the document shown', value: shownSha256 },
      { label: 'Signing link', value: `message ${link.messageId}` },
    ],
    trail: certificateTrail(history.trail, link, history.message, facility.timeZone, {
      at: signing.at,
      name: signing.name,
      ipAddress: signing.viewer.ipAddress,
    }),
    consent: consentText(facility.name),
  };
}

/**
 * The certificate's signer: the typed name, and when it is not the name the document is addressed
 * to (letter case and spacing aside), both: "signed as X, sent to Y".
 */
export function signedByText(typed: string, addressee: string | null): string {
  const plain = (name: string) => name.replace(/\s+/g, ' ').trim().toLowerCase();
  if (addressee === null || plain(typed) === plain(addressee)) return typed;
  return `${typed} (signed as ${typed}, sent to ${addressee})`;
}

/** What the page says about a drawing it could not take. */
function signatureProblem(reading: Exclude<SignatureReading, { ok: true }>): string {
  switch (reading.problem) {
    case 'missing':
    case 'empty':
      return 'Draw your signature in the box.';
    case 'too_large':
      return 'The drawing is too large to take. Clear it and sign again.';
    case 'too_many_pixels':
      return (
        `The drawing is ${reading.width} x ${reading.height} pixels, larger than a signature can be ` +
        `(${SIGNATURE_MAX_WIDTH} x ${SIGNATURE_MAX_HEIGHT} at most). Clear it and sign again.`
      );
    case 'not_png':
      return 'The drawing could not be read. Clear it and sign again.';
  }
}

function shownHash(link: SigningLink, documentId: string): string {
  return link.documents.find((d) => d.documentId === documentId)?.documentSha256 ?? '';
}

function viewerDetails(viewer: Viewer): { ipAddress: string; userAgent: string | null } {
  const agent = viewer.userAgent?.replace(/\p{Cc}/gu, ' ').trim() ?? '';
  return { ipAddress: viewer.ipAddress, userAgent: agent === '' ? null : agent.slice(0, MAX_USER_AGENT) };
}

/** The certificate's audit trail in words, oldest first, this signing last. */
function certificateTrail(
  trail: readonly EsignAuditEvent[],
  link: SigningLink,
  message: OutboxMessage | null,
  zone: string,
  signing: { at: string; name: string; ipAddress: string },
): Array<{ at: string; event: string; details: string }> {
  const lines: Array<{ stored: string; event: string; details: string }> = [];
  const how = (channel: string) => (channel === 'email' ? 'by email' : 'by text message');
  for (const entry of trail) {
    if (entry.kind === 'sent') {
      lines.push({ stored: entry.at, event: 'Sent', details: `${how(entry.channel)} to ${entry.recipient}` });
    } else if (entry.kind === 'viewed') {
      lines.push({
        stored: entry.at,
        event: 'Opened',
        details: `signing page opened from ${entry.ipAddress ?? 'an unknown address'}`,
      });
    } else if (entry.kind === 'revoked') {
      lines.push({
        stored: entry.at,
        event: 'Revoked',
        details: `the link sent to ${entry.recipient} was withdrawn`,
      });
    }
  }
  if (message?.sentAt) {
    lines.push({
      stored: message.sentAt,
      event: 'Delivered',
      details: `handed to the ${link.channel === 'email' ? 'mail server' : 'text message provider'} for ${link.recipient}`,
    });
  }
  lines.sort((a, b) => (a.stored < b.stored ? -1 : a.stored > b.stored ? 1 : 0));
  lines.push({
    stored: signing.at,
    event: 'Signed',
    details: `by ${signing.name}, from ${signing.ipAddress}, after consenting to sign electronically`,
  });
  return lines.map((line) => ({
    at: readableInstant(line.stored, zone),
    event: line.event,
    details: line.details,
  }));
}
