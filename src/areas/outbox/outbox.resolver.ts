import { Arg, Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { Cost } from '../../graphql/cost-directives';
import type { Facility } from '../facilities/facilities.types';
import { OUTBOX_CURSOR_LIST, OUTBOX_PAGE_LIMITS, type OutboxService } from './outbox.service';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOf,
  type ConnectionView,
} from '../../graphql/connection';
import { normalizeId } from '../../kernel/ids';
import type { GraphqlContext } from '../../graphql/context';
import { FacilityObject } from '../facilities/facilities.graphql';
import {
  OutboxMessageConnectionObject,
  OutboxMessagePageObject,
  OutboxStatusEnum,
  outboxMessageView,
  type OutboxMessageView,
} from './outbox.graphql';
import { pageCost, paginationOf, type PageView } from '../../graphql/pagination';

type OutboxStatusValue = (typeof OutboxStatusEnum)[keyof typeof OutboxStatusEnum];

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly outbox: OutboxService;
}

/** A facility's outbox: what was queued for delivery and how far each message got. */
@Resolver(() => FacilityObject)
export class OutboxResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => OutboxMessagePageObject, {
    description: "The facility's outbox messages, newest first, optionally of one status.",
  })
  @Cost(pageCost(OUTBOX_PAGE_LIMITS.maxPerPage))
  async outboxMessages(
    @Root() facility: Facility,
    @Ctx() ctx: GraphqlContext,
    @Arg('status', () => OutboxStatusEnum, { nullable: true }) status: OutboxStatusValue | null,
    @Arg('page', () => Int, { nullable: true, description: '1-based (default 1).' }) page: number | null,
    @Arg('perPage', () => Int, {
      nullable: true,
      description: `Default ${OUTBOX_PAGE_LIMITS.defaultPerPage}; above ${OUTBOX_PAGE_LIMITS.maxPerPage} reads as ${OUTBOX_PAGE_LIMITS.maxPerPage}.`,
    })
    perPage: number | null,
  ): Promise<PageView<OutboxMessageView>> {
    const result = await this.services.outbox.messagesOfFacility(facility, { status, page, perPage });
    return {
      entries: result.entries.map((message) => outboxMessageView(message, facility.timeZone)),
      pagination: paginationOf(result.pagination),
    };
  }

  @FieldResolver(() => OutboxMessageConnectionObject, {
    description:
      'The messages of outboxMessages walked by cursor (Relay connection): newest first, the same filter.',
  })
  @Cost(connectionCost())
  async outboxMessagesConnection(
    @Root() facility: Facility,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
    @Arg('status', () => OutboxStatusEnum, { nullable: true }) status: OutboxStatusValue | null,
  ): Promise<ConnectionView<OutboxMessageView>> {
    const slice = await this.services.outbox.messagesConnection(facility, { status }, args);
    const scope = { list: OUTBOX_CURSOR_LIST, owner: normalizeId(facility.id) };
    return connectionOf(slice, scope, args, (message) => outboxMessageView(message, facility.timeZone));
  }
}
