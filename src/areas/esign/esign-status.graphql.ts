import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import type { Keyset } from '../../kernel/connections';
import { Cost } from '../../graphql/cost-directives';
import type { SliceLimits } from '../../graphql/pagination';
import { KIND_ORDER, type DocumentEsignStatus } from './esign.state';
import type { EsignAuditEvent, EsignState, SigningLink } from './esign.types';
import { formatInstant } from '../../kernel/time';
import { OutboxChannelEnum } from '../outbox/outbox.graphql';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

/**
 * A document's links and audit trail grow with every send of it and every step of its signing:
 * each field answers `first` of them from `offset`, as many by default as the estimate assumed.
 */
export const ESIGN_LINK_LIMITS: SliceLimits = { defaultFirst: 10, maxFirst: 10 };
export const ESIGN_AUDIT_LIMITS: SliceLimits = { defaultFirst: 20, maxFirst: 20 };

/** E-sign states in GraphQL's spelling; the values are the domain's. */
export const EsignStateEnum = {
  SENT: 'sent',
  VIEWED: 'viewed',
  SIGNED: 'signed',
  EXPIRED: 'expired',
  REVOKED: 'revoked',
} as const;

registerEnumType(EsignStateEnum, {
  name: 'EsignState',
  description: 'Where the signing of a document, a signing link or an event is.',
  valuesConfig: {
    SENT: { description: 'Its signing link was sent and has not been opened yet.' },
    VIEWED: { description: 'The signing page was opened; nothing is signed yet.' },
    SIGNED: { description: 'Signed: downloads answer the signed PDF.' },
    EXPIRED: { description: 'Every link ran out before it was signed: send it again.' },
    REVOKED: { description: 'Its link was withdrawn before it was signed.' },
  },
});

export const EsignAuditKindEnum = {
  SENT: 'sent',
  VIEWED: 'viewed',
  SIGNED: 'signed',
  REVOKED: 'revoked',
} as const;

registerEnumType(EsignAuditKindEnum, {
  name: 'EsignAuditKind',
  description: 'What an audit trail entry records.',
  valuesConfig: {
    SENT: { description: 'A message with a signing link was queued for the recipient.' },
    VIEWED: { description: 'The signing page was first opened through the link.' },
    SIGNED: { description: 'Signed through the link: the signature record.' },
    REVOKED: { description: 'The link was withdrawn.' },
  },
});

export type EsignStateValue = (typeof EsignStateEnum)[keyof typeof EsignStateEnum];

const instant = (stored: string | null, zone: string) =>
  stored === null ? null : formatInstant(stored, zone);

/** An audit trail entry as GraphQL answers it: the record, its instant in the facility's zone. */
export type EsignAuditEntryView = EsignAuditEvent;

export function auditEntryView(event: EsignAuditEvent, zone: string): EsignAuditEntryView {
  return { ...event, at: formatInstant(event.at, zone) };
}

/** A signing link as GraphQL answers it: its state, instants in the facility's zone, completedAt as signedAt. */
export interface EsignLinkView extends Omit<SigningLink, 'completedAt'> {
  state: EsignState;
  signedAt: string | null;
}

export function esignLinkView(link: SigningLink, state: EsignState, zone: string): EsignLinkView {
  const { completedAt, ...rest } = link;
  return {
    ...rest,
    state,
    createdAt: formatInstant(link.createdAt, zone),
    expiresAt: formatInstant(link.expiresAt, zone),
    firstViewedAt: instant(link.firstViewedAt, zone),
    revokedAt: instant(link.revokedAt, zone),
    signedAt: instant(completedAt, zone),
  };
}

export interface DocumentEsignView {
  state: EsignState;
  sentAt: string;
  firstViewedAt: string | null;
  signedAt: string | null;
  signerName: string | null;
  signedSha256: string | null;
  links: EsignLinkView[];
  auditTrail: EsignAuditEntryView[];
  /** The document's id and each entry's place in its list's order, for the lists' cursors. */
  documentId: string;
  linkPositions: Keyset[];
  auditPositions: Keyset[];
}

export function documentEsignView(
  status: DocumentEsignStatus,
  linkStates: ReadonlyMap<string, EsignState>,
  zone: string,
): DocumentEsignView {
  return {
    state: status.state,
    sentAt: formatInstant(status.sentAt, zone),
    firstViewedAt: instant(status.firstViewedAt, zone),
    signedAt: instant(status.signed?.signedAt ?? null, zone),
    signerName: status.signature?.signerName ?? null,
    signedSha256: status.signed?.sha256 ?? null,
    links: status.links.map((link) => esignLinkView(link, linkStates.get(link.messageId) ?? 'sent', zone)),
    auditTrail: status.trail.map((event) => auditEntryView(event, zone)),
    documentId: status.documentId,
    // The orders of eventEsignStatus: a link's creation (UTC) then its message; an entry's
    // instant (UTC), its kind's order, then its id.
    linkPositions: status.links.map((link) => [link.createdAt, link.messageId]),
    auditPositions: status.trail.map((event) => [event.at, KIND_ORDER[event.kind], event.id]),
  };
}

@ObjectType('EsignAuditEntry', {
  simpleResolvers: true,
  description: "One line of a document's e-sign audit trail.",
})
export class EsignAuditEntryObject {
  @Field(() => EsignAuditKindEnum)
  kind: string;

  @Field(() => DateTimeScalar)
  at: string;

  @Field(() => UUIDScalar, { description: 'The message whose signing link this happened through.' })
  messageId: string;

  @Field(() => OutboxChannelEnum)
  channel: string;

  @Field(() => String, { description: 'Where the link was sent: email address or E.164 number.' })
  recipient: string;

  @Field(() => String, { nullable: true, description: 'SIGNED: the full name the signer typed.' })
  signerName: string | null;

  @Field(() => String, { nullable: true, description: 'VIEWED and SIGNED: where the page was used from.' })
  ipAddress: string | null;

  @Field(() => String, { nullable: true, description: "VIEWED and SIGNED: the browser's User-Agent." })
  userAgent: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'SIGNED: the version of the consent wording agreed to (docs/documents-and-esign.md).',
  })
  consentVersion: string | null;

  @Field(() => String, { nullable: true, description: "SHA-256 (hex) of the document's PDF as shown." })
  documentSha256: string | null;

  @Field(() => String, { nullable: true, description: 'SIGNED: SHA-256 (hex) of the signed PDF.' })
  signedSha256: string | null;
}

@ObjectType('EsignLinkDocument', { simpleResolvers: true, description: 'A document a signing link offers.' })
export class EsignLinkDocumentObject {
  @Field(() => UUIDScalar)
  documentId: string;

  @Field(() => String)
  description: string;

  @Field(() => String, { description: 'SHA-256 (hex) of its PDF when the link was sent.' })
  documentSha256: string;
}

@ObjectType('EsignLink', {
  simpleResolvers: true,
  description:
    'The signing link an e-sign message carries (/sign/<token>; the token itself is never shown): ' +
    'bound to the message, its recipient and its documents.',
})
export class EsignLinkObject {
  @Field(() => UUIDScalar, { description: 'The outbox message carrying the link; revoke it by this id.' })
  messageId: string;

  @Field(() => UUIDScalar)
  eventId: string;

  @Field(() => OutboxChannelEnum)
  channel: string;

  @Field(() => String)
  recipient: string;

  @Field(() => EsignStateEnum)
  state: string;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => DateTimeScalar, {
    description: 'When the link stops working (ESIGN_LINK_TTL_HOURS after sending).',
  })
  expiresAt: string;

  @Field(() => DateTimeScalar, { nullable: true })
  firstViewedAt: string | null;

  @Field(() => DateTimeScalar, { nullable: true })
  revokedAt: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When its documents were signed through it.' })
  signedAt: string | null;

  // Cost estimates: an event has a few documents, a document a few links and a short trail.
  @Field(() => [EsignLinkDocumentObject])
  @Cost({ assumedSize: 10 })
  documents: EsignLinkDocumentObject[];
}

@ObjectType('DocumentEsign', {
  simpleResolvers: true,
  description: 'The e-sign state of a document sent for signing, and its audit trail.',
})
export class DocumentEsignObject {
  @Field(() => EsignStateEnum)
  state: string;

  @Field(() => DateTimeScalar, { description: 'When it was first sent for signing.' })
  sentAt: string;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'When a signing page offering it was first opened.',
  })
  firstViewedAt: string | null;

  @Field(() => DateTimeScalar, { nullable: true })
  signedAt: string | null;

  @Field(() => String, { nullable: true })
  signerName: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'SHA-256 (hex) of the signed PDF that downloads answer.',
  })
  signedSha256: string | null;

  // Fields with `first` and `offset` (DocumentEsignListsResolver): both grow with every send.
  links: EsignLinkView[];

  auditTrail: EsignAuditEntryView[];
}

@ObjectType('EsignLinkEdge', { simpleResolvers: true, description: 'A signing link and its cursor.' })
export class EsignLinkEdgeObject extends EdgeType(EsignLinkObject) {}

@ObjectType('EsignLinkConnection', {
  simpleResolvers: true,
  description: 'A slice of the links that offered a document, walked by cursor.',
})
export class EsignLinkConnectionObject extends ConnectionType(EsignLinkEdgeObject, 'signing links') {}

@ObjectType('EsignAuditEntryEdge', { simpleResolvers: true, description: 'An audit entry and its cursor.' })
export class EsignAuditEntryEdgeObject extends EdgeType(EsignAuditEntryObject) {}

@ObjectType('EsignAuditEntryConnection', {
  simpleResolvers: true,
  description: "A slice of a document's e-sign audit trail, walked by cursor.",
})
export class EsignAuditEntryConnectionObject extends ConnectionType(
  EsignAuditEntryEdgeObject,
  'audit entries',
) {}
