import type { DocumentReads, OriginalDocuments } from '../documents/documents.ports';
import { DomainError, problem } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import type { OutboxAccess } from '../outbox/outbox.ports';
import type { NewOutboxMessage, OutboxMessage } from '../outbox/outbox.types';
import type { Clock } from '../../kernel/clock';
import { isUuid, newId, normalizeId } from '../../kernel/ids';
import { localDate, toStoredInstant } from '../../kernel/time';
import {
  documentUrl,
  esignEmailContent,
  inReadingOrder,
  esignSmsContent,
  shortSigningUrl,
  signingUrl,
  type MessageLink,
} from './esign.content';
import type { EsignEventBuilders, EsignRepository, EsignStates } from './esign.ports';
import { readRecipient } from './esign.recipients';
import { eventEsignStatus, linkState, recordsByEvent, type EventEsignStatus } from './esign.state';
import { newSigningToken, sha256Hex, tokenHash } from './esign.tokens';
import type { EsignAuditEvent, EsignState, SigningLink } from './esign.types';

/** Send the event's esignable documents to exactly one of an email address and an SMS number. */
export interface SendEsignableDocumentsCommand {
  eventId: string;
  email?: string | null;
  smsNumber?: string | null;
}

export interface EsignOptions {
  /** Where the service is reached from outside; links in messages start with it. */
  publicBaseUrl: string;
  /** How long a signing link works. */
  linkTtlMs: number;
  /** SMTP_REPLY_TO: where replies to an email go; without it the email does not invite replies. */
  replyTo?: string | null;
}

/**
 * E-sign delivery (contract 4.9) and what staff see of it: the event's esignable documents, by
 * email or SMS through the outbox, each message carrying one signing link; the state of each
 * document's signing; revoking a link.
 */
export class EsignService implements EsignStates {
  constructor(
    private readonly documents: DocumentReads,
    private readonly documentPdfs: OriginalDocuments,
    private readonly outbox: OutboxAccess,
    private readonly repository: EsignRepository,
    private readonly clock: Clock,
    private readonly options: EsignOptions,
    /** Writes `esign.sent` with each message; none when absent. */
    private readonly events?: EsignEventBuilders,
  ) {}

  /**
   * Queues one message per recipient (exactly one of email and sms_number) with a signing link to
   * the event's esignable documents. Checks, in order: the event (404/9), the recipient (400/5 both,
   * 400/4 neither or malformed), then that the event has esignable documents (400/3). The message,
   * its link (bound to the message, the recipient and the documents as they are now) and the link's
   * sent events are written in one transaction; nothing is written unless every check passes.
   */
  async sendEsignableDocuments(
    facility: Facility,
    command: SendEsignableDocumentsCommand,
  ): Promise<OutboxMessage[]> {
    const event = await this.documents.eventFor(facility, command.eventId);
    const recipient = readRecipient(command);
    const [documents] = await this.documents.documentsByEventIds([event.id]);
    const esignable = inReadingOrder(documents.filter((d) => d.esignable));
    if (esignable.length === 0) {
      throw new DomainError('action_failed', `event ${event.id} has no esignable documents`, {
        problems: [problem(['eventId'], 'has no esignable documents')],
      });
    }
    // What the signer will be shown: each document's PDF as it is now.
    const hashes: string[] = [];
    for (const document of esignable) {
      hashes.push(sha256Hex((await this.documentPdfs.originalDocument(facility, document.id)).content));
    }

    const now = this.clock.now();
    const createdAt = toStoredInstant(now);
    const expires = new Date(now.getTime() + this.options.linkTtlMs);
    const token = newSigningToken();
    const base = this.options.publicBaseUrl;
    const link: MessageLink = {
      token,
      url: signingUrl(base, token),
      shortUrl: shortSigningUrl(base, token),
      // The last whole day: a link that runs out at 10:00 on the 8th works "until the 8th".
      expiresOn: localDate(new Date(expires.getTime() - 1), facility.timeZone),
    };
    const offered = esignable.map((d) => ({
      id: d.id,
      description: d.description,
      url: documentUrl(base, facility.id, d.id),
    }));
    const owner = { id: facility.id, name: facility.name };
    const channelMessage: NewOutboxMessage =
      recipient.channel === 'email'
        ? {
            channel: 'email',
            recipient: recipient.address,
            content: esignEmailContent(owner, event.id, offered, link, {
              repliesRead: Boolean(this.options.replyTo),
            }),
          }
        : {
            channel: 'sms',
            recipient: recipient.number,
            content: esignSmsContent(owner, event.id, offered, link),
          };
    const message = this.outbox.prepare(facility, event.id, channelMessage);
    const signingLink: SigningLink = {
      messageId: message.id,
      facilityId: facility.id,
      eventId: event.id,
      channel: message.channel,
      recipient: message.recipient,
      createdAt,
      expiresAt: toStoredInstant(expires),
      firstViewedAt: null,
      revokedAt: null,
      completedAt: null,
      documents: esignable.map((d, i) => ({
        documentId: d.id,
        description: d.description,
        documentSha256: hashes[i],
      })),
    };
    const sent = signingLink.documents.map((d) =>
      auditEvent(signingLink, d.documentId, 'sent', createdAt, { documentSha256: d.documentSha256 }),
    );
    // The token's hash is all the link's record keeps of it.
    const events = this.events ? [this.events.esignSent(facility, message)] : [];
    await this.repository.insertMessageWithLink(message, signingLink, tokenHash(token), sent, events);
    this.outbox.announce();
    return [message];
  }

  /**
   * Withdraws the link a message carries: from now on it shows a page saying so. NOT_FOUND for a
   * message that is not one of the facility's e-sign messages; ACTION_FAILED once it was signed.
   * Revoking a revoked link changes nothing.
   */
  async revokeLink(facility: Facility, messageId: string): Promise<SigningLink> {
    const link = isUuid(messageId)
      ? await this.repository.findLink(facility.id, normalizeId(messageId))
      : undefined;
    if (!link) throw DomainError.notFound(['messageId'], 'e-sign message', messageId);
    if (link.completedAt)
      throw DomainError.actionFailed(['messageId'], 'was signed already; a signed link stays signed');
    if (link.revokedAt) return link;
    const at = toStoredInstant(this.clock.now());
    const revoked = link.documents.map((d) => auditEvent(link, d.documentId, 'revoked', at));
    if (!(await this.repository.revoke(link.messageId, at, revoked))) {
      // Signed or revoked in the meantime: answer what it is now.
      const now = await this.repository.findLink(facility.id, link.messageId);
      if (now?.completedAt) {
        throw DomainError.actionFailed(['messageId'], 'was signed already; a signed link stays signed');
      }
      return now ?? link;
    }
    return { ...link, revokedAt: at };
  }

  /** A link's state now. */
  stateOfLink(link: SigningLink): EsignState {
    return linkState(link, toStoredInstant(this.clock.now()));
  }

  /** The e-sign status of each event, in key order (DataLoader batch shape). */
  async statusOfEvents(eventIds: readonly string[]): Promise<EventEsignStatus[]> {
    const keys = eventIds.map(normalizeId);
    const records = await this.repository.recordsOfEvents(keys);
    const now = toStoredInstant(this.clock.now());
    return keys.map((eventId, i) => eventEsignStatus(eventId, records[i], now));
  }

  /** The facility's events whose signing is in this state now. */
  async eventIdsInState(facility: Facility, state: EsignState): Promise<string[]> {
    const now = toStoredInstant(this.clock.now());
    const byEvent = recordsByEvent(await this.repository.recordsOfFacility(facility.id));
    return [...byEvent.entries()]
      .filter(([eventId, records]) => eventEsignStatus(eventId, records, now).state === state)
      .map(([eventId]) => eventId);
  }
}

/** An audit trail line about one document of a link. */
export function auditEvent(
  link: SigningLink,
  documentId: string,
  kind: EsignAuditEvent['kind'],
  at: string,
  details: Partial<
    Pick<
      EsignAuditEvent,
      'signerName' | 'ipAddress' | 'userAgent' | 'consentVersion' | 'documentSha256' | 'signedSha256'
    >
  > = {},
): EsignAuditEvent {
  return {
    id: newId(),
    messageId: link.messageId,
    documentId,
    facilityId: link.facilityId,
    eventId: link.eventId,
    kind,
    at,
    channel: link.channel,
    recipient: link.recipient,
    signerName: details.signerName ?? null,
    ipAddress: details.ipAddress ?? null,
    userAgent: details.userAgent ?? null,
    consentVersion: details.consentVersion ?? null,
    documentSha256: details.documentSha256 ?? null,
    signedSha256: details.signedSha256 ?? null,
  };
}
