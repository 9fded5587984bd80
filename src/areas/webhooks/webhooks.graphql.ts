import { ConnectionType, EdgeType } from '../../graphql/connection';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { WEBHOOK_EVENT_TYPE_COUNT, type WebhookDelivery, type WebhookEndpoint } from './webhooks.types';
import { Cost } from '../../graphql/cost-directives';
import { OutboxStatusEnum } from '../outbox/outbox.graphql';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

@InputType('CreateWebhookEndpointInput', { description: 'A new webhook endpoint of the company.' })
export class CreateWebhookEndpointInput {
  @Field(() => String, {
    description:
      'Where deliveries are POSTed: https (plain http only for hosts in WEBHOOK_ALLOW_HOSTS), at a public address.',
  })
  url: string;

  @Field(() => [String], {
    description:
      'The event types it receives: payment.succeeded, note.created, esign.sent, esign.delivered, esign.failed, ' +
      'document.viewed, document.signed, move_in.reviewed.',
  })
  eventTypes: string[];

  @Field(() => String, { nullable: true, description: 'What it is for, at most 500 characters.' })
  description?: string | null;
}

@ObjectType('WebhookDelivery', {
  simpleResolvers: true,
  description: 'One event delivered to one endpoint, and how far its delivery got.',
})
export class WebhookDeliveryObject {
  @Field(() => UUIDScalar, { description: 'The webhook-id header: the same on every attempt and replay.' })
  id: string;

  @Field(() => String)
  eventType: string;

  @Field(() => UUIDScalar, { description: 'The facility the event happened at.' })
  facilityId: string;

  @Field(() => OutboxStatusEnum, {
    description: 'PENDING (waiting for its next attempt), SENDING, SENT (answered 2xx) or FAILED (given up).',
  })
  status: string;

  @Field(() => Int, { description: 'Attempts started so far (a replay starts again from 0).' })
  attempts: number;

  @Field(() => Int, { nullable: true, description: "The HTTP status of the endpoint's last answer." })
  responseCode: number | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed; null once delivered.' })
  lastError: string | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'When a pending delivery is tried next (UTC).',
  })
  nextAttemptAt: string | null;

  @Field(() => DateTimeScalar, { description: 'When the event was written (UTC).' })
  createdAt: string;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When an attempt was answered 2xx (UTC).' })
  deliveredAt: string | null;
}

/** A delivery as GraphQL answers it: the next attempt only while one is due. */
export function webhookDeliveryView(delivery: WebhookDelivery): WebhookDeliveryObject {
  return {
    id: delivery.id,
    eventType: delivery.eventType,
    facilityId: delivery.facilityId,
    status: delivery.status,
    attempts: delivery.attempts,
    responseCode: delivery.responseCode,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
    createdAt: delivery.createdAt,
    deliveredAt: delivery.deliveredAt,
  };
}

@ObjectType('WebhookEndpoint', {
  simpleResolvers: true,
  description:
    "A URL the company's events are POSTed to, signed per Standard Webhooks. Its secret is never shown again.",
})
export class WebhookEndpointObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  url: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  // Read without repeats from the known types (readEventTypes): at most all of them.
  @Field(() => [String])
  @Cost({ assumedSize: WEBHOOK_EVENT_TYPE_COUNT })
  eventTypes: string[];

  @Field(() => Boolean, { description: 'False while disabled (by a person, or after failing for days).' })
  enabled: boolean;

  @Field(() => DateTimeScalar, { nullable: true })
  disabledAt: string | null;

  @Field(() => String, { nullable: true, description: 'MANUAL, or FAILING when the service disabled it.' })
  disabledReason: string | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'The first failed delivery since the last success; null while deliveries succeed.',
  })
  failingSince: string | null;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => DateTimeScalar, { nullable: true })
  secretRotatedAt: string | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'Until when the secret replaced by the last rotation still signs (a second signature).',
  })
  previousSecretExpiresAt: string | null;
}

/** An endpoint as GraphQL answers it. */
export interface WebhookEndpointView extends Omit<WebhookEndpoint, 'disabledReason'> {
  enabled: boolean;
  disabledReason: string | null;
}

export function webhookEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    ...endpoint,
    enabled: endpoint.disabledAt === null,
    disabledReason: endpoint.disabledReason ? endpoint.disabledReason.toUpperCase() : null,
  };
}

@ObjectType('WebhookEndpointWithSecret', {
  simpleResolvers: true,
  description: 'An endpoint and its signing secret, shown only in this answer.',
})
export class WebhookEndpointWithSecretObject {
  @Field(() => WebhookEndpointObject)
  endpoint: WebhookEndpointView;

  @Field(() => String, {
    description:
      'whsec_ and the base64 key: verify deliveries with it (any Standard Webhooks library). Keep it safe; it is not shown again.',
  })
  secret: string;
}

@ObjectType('WebhookDeliveryEdge', {
  simpleResolvers: true,
  description: 'A webhook delivery and its cursor.',
})
export class WebhookDeliveryEdgeObject extends EdgeType(WebhookDeliveryObject) {}

@ObjectType('WebhookDeliveryConnection', {
  simpleResolvers: true,
  description: "A slice of a webhook endpoint's deliveries, walked by cursor.",
})
export class WebhookDeliveryConnectionObject extends ConnectionType(
  WebhookDeliveryEdgeObject,
  'deliveries',
) {}
