import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { EsignService } from './esign.service';
import {
  DocumentObject,
  EventObject,
  type DocumentView,
  type EventView,
} from '../documents/documents.graphql';
import {
  DocumentEsignObject,
  documentEsignView,
  ESIGN_AUDIT_LIMITS,
  ESIGN_LINK_LIMITS,
  EsignAuditEntryConnectionObject,
  EsignAuditEntryObject,
  EsignLinkConnectionObject,
  EsignLinkObject,
  esignLinkView,
  EsignStateEnum,
  type DocumentEsignView,
  type EsignAuditEntryView,
  type EsignLinkView,
  type EsignStateValue,
} from './esign-status.graphql';
import { OutboxMessageObject, type OutboxMessageView } from '../outbox/outbox.graphql';
import { UUIDScalar } from '../../graphql/scalars';
import { Cost } from '../../graphql/cost-directives';
import { sliceCost, sliceDescriptions, sliceOf } from '../../graphql/pagination';
import { parseSliceRequest } from '../../kernel/pagination';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOfLoaded,
  type ConnectionView,
} from '../../graphql/connection';
import type { Keyset } from '../../kernel/connections';

/**
 * A list of a document's signing walked by cursor: the views with their places in the list's
 * order, cursors bound to the list and the document.
 */
function esignConnection<T>(
  views: readonly T[],
  positions: readonly Keyset[],
  list: { list: string; owner: string; arity: number; defaultFirst: number },
  args: ConnectionArgsType,
): ConnectionView<T> {
  const placed = views.map((view, i) => ({ view, position: positions[i] }));
  return connectionOfLoaded(
    placed,
    args,
    {
      scope: { list: list.list, owner: list.owner },
      keyOf: (entry) => entry.position,
      arity: list.arity,
      defaultFirst: list.defaultFirst,
    },
    (entry) => entry.view,
  );
}

const LINK_ARGUMENTS = sliceDescriptions(ESIGN_LINK_LIMITS);
const AUDIT_ARGUMENTS = sliceDescriptions(ESIGN_AUDIT_LIMITS);

/** A document's signing: its state, links and audit trail (null when it was never sent for signing). */
@Resolver(() => DocumentObject)
export class DocumentEsignResolver {
  @FieldResolver(() => DocumentEsignObject, {
    nullable: true,
    description:
      'Its e-sign state (SENT, VIEWED, SIGNED, EXPIRED, REVOKED) and audit trail; null when it was ' +
      'never sent for signing. Not part of the REST contract.',
  })
  async esign(@Root() document: DocumentView, @Ctx() ctx: GraphqlContext): Promise<DocumentEsignView | null> {
    const status = await ctx.loaders.esignByEvent.load(document.eventId);
    const own = status.documents.get(document.id);
    return own ? documentEsignView(own, status.linkStates, document.timeZone) : null;
  }
}

/** A document's links and audit trail, each a slice (the document's signing is loaded whole). */
@Resolver(() => DocumentEsignObject)
export class DocumentEsignListsResolver {
  @FieldResolver(() => [EsignLinkObject], {
    description: 'The links that offered it, oldest first: `first` of them (at most 10) from `offset`.',
  })
  @Cost(sliceCost(ESIGN_LINK_LIMITS))
  links(
    @Root() esign: DocumentEsignView,
    @Arg('first', () => Int, { nullable: true, description: LINK_ARGUMENTS.first }) first: number | null,
    @Arg('offset', () => Int, { nullable: true, description: LINK_ARGUMENTS.offset }) offset: number | null,
  ): EsignLinkView[] {
    return sliceOf(esign.links, parseSliceRequest({ first, offset }, ESIGN_LINK_LIMITS));
  }

  @FieldResolver(() => [EsignAuditEntryObject], {
    description: 'Oldest first: `first` of its entries (at most 20) from `offset`.',
  })
  @Cost(sliceCost(ESIGN_AUDIT_LIMITS))
  auditTrail(
    @Root() esign: DocumentEsignView,
    @Arg('first', () => Int, { nullable: true, description: AUDIT_ARGUMENTS.first }) first: number | null,
    @Arg('offset', () => Int, { nullable: true, description: AUDIT_ARGUMENTS.offset }) offset: number | null,
  ): EsignAuditEntryView[] {
    return sliceOf(esign.auditTrail, parseSliceRequest({ first, offset }, ESIGN_AUDIT_LIMITS));
  }

  @FieldResolver(() => EsignLinkConnectionObject, {
    description:
      'The links that offered it walked by cursor (Relay connection): oldest first, sent then message id.',
  })
  @Cost(connectionCost())
  linksConnection(
    @Root() esign: DocumentEsignView,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): ConnectionView<EsignLinkView> {
    const list = { list: 'DocumentEsign.links', owner: esign.documentId, arity: 2 };
    return esignConnection(esign.links, esign.linkPositions, { ...list, defaultFirst: 10 }, args);
  }

  @FieldResolver(() => EsignAuditEntryConnectionObject, {
    description:
      'Its audit trail walked by cursor (Relay connection): oldest first, by instant, step, then id.',
  })
  @Cost(connectionCost())
  auditTrailConnection(
    @Root() esign: DocumentEsignView,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
  ): ConnectionView<EsignAuditEntryView> {
    const list = { list: 'DocumentEsign.auditTrail', owner: esign.documentId, arity: 3 };
    return esignConnection(esign.auditTrail, esign.auditPositions, { ...list, defaultFirst: 20 }, args);
  }
}

/** An event's signing as a whole. */
@Resolver(() => EventObject)
export class EventEsignResolver {
  @FieldResolver(() => EsignStateEnum, {
    nullable: true,
    description:
      'The e-sign state of the event as a whole: SIGNED when every document sent for signing is ' +
      'signed, else the liveliest state among the others (VIEWED, SENT, EXPIRED, REVOKED, in that ' +
      'order); null when none was sent.',
  })
  async esignState(@Root() event: EventView, @Ctx() ctx: GraphqlContext): Promise<EsignStateValue | null> {
    return (await ctx.loaders.esignByEvent.load(event.id)).state;
  }
}

/** The signing link an e-sign message carries. */
@Resolver(() => OutboxMessageObject)
export class OutboxMessageEsignResolver {
  @FieldResolver(() => EsignLinkObject, {
    nullable: true,
    description: 'The signing link this message carries, and its state.',
  })
  async esignLink(
    @Root() message: OutboxMessageView,
    @Ctx() ctx: GraphqlContext,
  ): Promise<EsignLinkView | null> {
    if (!message.eventId) return null;
    const status = await ctx.loaders.esignByEvent.load(message.eventId);
    const link = status.links.get(message.id);
    if (!link) return null;
    const facility = await ctx.loaders.facilities.load(link.facilityId);
    if (!facility) return null;
    return esignLinkView(link, status.linkStates.get(link.messageId) ?? 'sent', facility.timeZone);
  }
}

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly esign: EsignService;
}

/** Withdrawing a signing link. */
@Resolver()
export class EsignLinksResolver {
  constructor(private readonly services: ResolverServices) {}

  @Mutation(() => EsignLinkObject, {
    description:
      'Withdraws the signing link an e-sign message carries: from now on the page says so and signs ' +
      'nothing. NOT_FOUND for a message that is not an e-sign message of the facility; ACTION_FAILED ' +
      'once it was signed. Revoking a revoked link changes nothing.',
  })
  async revokeEsignLink(
    @Ctx() ctx: GraphqlContext,
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('messageId', () => UUIDScalar) messageId: string,
  ): Promise<EsignLinkView> {
    const facility = await ctx.loaders.facility(facilityId);
    const link = await this.services.esign.revokeLink(facility, messageId);
    return esignLinkView(link, this.services.esign.stateOfLink(link), facility.timeZone);
  }
}
