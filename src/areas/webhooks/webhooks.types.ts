import type { OutboxStatus } from '../outbox/outbox.types';
import type { DisabledReason, webhookEndpoints } from './webhooks.tables';
import type { RecordOfTable } from '../../kernel/columns';

/** Every event a webhook endpoint can ask for, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES = [
  'payment.succeeded',
  'note.created',
  'esign.sent',
  'esign.delivered',
  'esign.failed',
  'document.viewed',
  'document.signed',
  'move_in.reviewed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

export type { DisabledReason };

/**
 * An endpoint as callers see it, read off its table: never its secrets. `secretRotatedAt`: when the
 * secret was last rotated, null when never; `previousSecretExpiresAt`: until when the secret a
 * rotation replaced still signs deliveries (null when none does); `failingSince`: the first failed
 * delivery since the last success, null while deliveries succeed.
 */
export type WebhookEndpoint = Omit<
  RecordOfTable<typeof webhookEndpoints, 'secret' | 'previous_secret'>,
  'eventTypes'
> & { eventTypes: WebhookEventType[] };

/** The secrets an endpoint signs with: the current one and, for a while after a rotation, the one before. */
export interface EndpointSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: string | null;
}

/** An endpoint as the store keeps it, with its secrets (only signing and the store see them). */
export interface StoredWebhookEndpoint extends WebhookEndpoint {
  secrets: EndpointSecrets;
}

/** An endpoint and its secret, shown only when it is made or rotated. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** The `data` of an event: a resource as the REST contract writes it (serialized with JSON.stringify). */
export type WebhookData = Record<string, unknown>;

/**
 * A change to report, written in the transaction of the change itself: the store turns it into one
 * outbox message per endpoint of the facility's company that wants its type.
 */
export interface WebhookEvent {
  type: WebhookEventType;
  facilityId: string;
  /** The facility event the change belongs to (a payment's, an e-sign message's), if any. */
  eventId: string | null;
  /** Stored UTC instant of the change. */
  occurredAt: string;
  /** `{"type","timestamp","data"}`: the exact bytes every delivery of it sends. */
  body: string;
}

/** Registers an endpoint. */
export interface CreateWebhookEndpointCommand {
  url?: string | null;
  eventTypes?: readonly string[] | null;
  description?: string | null;
}

/** One delivery of an event to an endpoint (an outbox message) and how far it got. */
export interface WebhookDelivery {
  /** The `webhook-id` header: the same on every attempt and replay. */
  id: string;
  endpointId: string;
  facilityId: string;
  eventType: string;
  status: OutboxStatus;
  attempts: number;
  /** The HTTP status of the last answer, null when none came (timeout, refused, not tried yet). */
  responseCode: number | null;
  lastError: string | null;
  /** Stored instant of the next attempt (pending deliveries). */
  nextAttemptAt: string;
  createdAt: string;
  deliveredAt: string | null;
}
