import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import {
  ConnectionArgsType,
  connectionCost,
  connectionOf,
  type ConnectionView,
} from '../../graphql/connection';
import { normalizeId } from '../../kernel/ids';
import { Cost } from '../../graphql/cost-directives';
import type { Company } from '../facilities/facilities.types';
import {
  DELIVERY_CURSOR_LIST,
  DELIVERY_LIST_LIMITS,
  MAX_ENDPOINTS_PER_COMPANY,
  type EndpointScope,
  type WebhooksService,
} from './webhooks.service';
import type { FacilityAccess } from '../facilities/facilities.ports';
import type { GraphqlContext } from '../../graphql/context';
import { withArgumentNames } from '../../graphql/errors';
import { CompanyObject } from '../facilities/facilities.graphql';
import { OutboxStatusEnum } from '../outbox/outbox.graphql';
import { UUIDScalar } from '../../graphql/scalars';
import {
  CreateWebhookEndpointInput,
  WebhookDeliveryConnectionObject,
  WebhookDeliveryObject,
  WebhookEndpointObject,
  WebhookEndpointWithSecretObject,
  webhookDeliveryView,
  webhookEndpointView,
  type WebhookEndpointView,
} from './webhooks.graphql';

type OutboxStatusValue = (typeof OutboxStatusEnum)[keyof typeof OutboxStatusEnum];

/** The endpoint command's fields are the input's. */
const INPUT_NAMES = { url: 'input.url', eventTypes: 'input.eventTypes', description: 'input.description' };

/** A caller acts on its own company's endpoints only; another company's are NOT_FOUND. */
const scopeOf = (ctx: GraphqlContext): EndpointScope => ({ companyId: ctx.caller.companyId });

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly facilities: FacilityAccess;
  readonly webhooks: WebhooksService;
}

/** A company's webhook endpoints. */
@Resolver(() => CompanyObject)
export class CompanyWebhooksResolver {
  constructor(private readonly services: Pick<ResolverServices, 'webhooks'>) {}

  @FieldResolver(() => [WebhookEndpointObject], {
    description: "The company's webhook endpoints, oldest first.",
  })
  @Cost({ assumedSize: MAX_ENDPOINTS_PER_COMPANY })
  async webhookEndpoints(@Root() company: Company): Promise<WebhookEndpointView[]> {
    return (await this.services.webhooks.endpointsOfCompany(company.id)).map(webhookEndpointView);
  }
}

/** Endpoints, their deliveries, and what a client application may do with them. */
@Resolver(() => WebhookEndpointObject)
export class WebhookEndpointsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => [WebhookDeliveryObject], {
    description: `The latest deliveries, newest first (${DELIVERY_LIST_LIMITS.default} by default, at most ${DELIVERY_LIST_LIMITS.max}).`,
  })
  @Cost({ assumedSize: DELIVERY_LIST_LIMITS.max, slicingArguments: ['first'] })
  async deliveries(
    @Root() endpoint: WebhookEndpointView,
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
    @Arg('status', () => OutboxStatusEnum, { nullable: true }) status: OutboxStatusValue | null,
  ): Promise<WebhookDeliveryObject[]> {
    const deliveries = await this.services.webhooks.deliveriesOf(endpoint, { first, status });
    return deliveries.map(webhookDeliveryView);
  }

  @FieldResolver(() => WebhookDeliveryConnectionObject, {
    description:
      'The deliveries of deliveries walked by cursor (Relay connection): newest first, the same filter.',
  })
  @Cost(connectionCost())
  async deliveriesConnection(
    @Root() endpoint: WebhookEndpointView,
    @Args(() => ConnectionArgsType) args: ConnectionArgsType,
    @Arg('status', () => OutboxStatusEnum, { nullable: true }) status: OutboxStatusValue | null,
  ): Promise<ConnectionView<WebhookDeliveryObject>> {
    const slice = await this.services.webhooks.deliveriesConnection(endpoint, { status }, args);
    const scope = { list: DELIVERY_CURSOR_LIST, owner: normalizeId(endpoint.id) };
    return connectionOf(slice, scope, args, webhookDeliveryView);
  }

  @Mutation(() => WebhookEndpointWithSecretObject, {
    description:
      'Registers a webhook endpoint of the company and answers its signing secret, shown only here. ' +
      'FORBIDDEN for another company; BAD_USER_INPUT naming input.url (malformed, not https, a private or ' +
      'loopback address), input.eventTypes[n] (unknown) or input.description.',
  })
  async createWebhookEndpoint(
    @Ctx() ctx: GraphqlContext,
    @Arg('companyId', () => UUIDScalar) companyId: string,
    @Arg('input', () => CreateWebhookEndpointInput) input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointWithSecretObject> {
    const company = await this.services.facilities.companyFor(ctx.caller, companyId);
    const created = await withArgumentNames(INPUT_NAMES, () =>
      this.services.webhooks.createEndpoint(company.id, input),
    );
    return { endpoint: webhookEndpointView(created.endpoint), secret: created.secret };
  }

  @Mutation(() => WebhookEndpointObject, {
    description: 'Stops deliveries to the endpoint (NOT_FOUND for an endpoint not of the caller’s company).',
  })
  async disableWebhookEndpoint(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => UUIDScalar) id: string,
  ): Promise<WebhookEndpointView> {
    return webhookEndpointView(await this.services.webhooks.disable(scopeOf(ctx), id));
  }

  @Mutation(() => WebhookEndpointObject, {
    description:
      'Delivers to the endpoint again, also after the service disabled it for failing; its failures are forgotten.',
  })
  async enableWebhookEndpoint(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => UUIDScalar) id: string,
  ): Promise<WebhookEndpointView> {
    return webhookEndpointView(await this.services.webhooks.enable(scopeOf(ctx), id));
  }

  @Mutation(() => WebhookEndpointWithSecretObject, {
    description:
      'Makes a new signing secret, shown only here; for 24 hours deliveries carry a signature with the old one too.',
  })
  async rotateWebhookSecret(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => UUIDScalar) id: string,
  ): Promise<WebhookEndpointWithSecretObject> {
    const rotated = await this.services.webhooks.rotateSecret(scopeOf(ctx), id);
    return { endpoint: webhookEndpointView(rotated.endpoint), secret: rotated.secret };
  }

  @Mutation(() => WebhookDeliveryObject, {
    description:
      'Sends a delivery again (same webhook-id and body, new timestamp and signature), due at once. NOT_FOUND for ' +
      "a delivery not of the caller's company; ACTION_FAILED while it is being sent or its endpoint is disabled.",
  })
  async replayWebhookMessage(
    @Ctx() ctx: GraphqlContext,
    @Arg('id', () => UUIDScalar, { description: 'The delivery (webhook-id).' }) id: string,
  ): Promise<WebhookDeliveryObject> {
    return webhookDeliveryView(await this.services.webhooks.replay(scopeOf(ctx), id));
  }
}
