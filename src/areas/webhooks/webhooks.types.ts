import type { OutboxStatus } from '../outbox/outbox.types';
import type { DisabledReason, webhookEndpoints } from './webhooks.tables';
import type { RecordOfTable } from '../../kernel/columns';

/**
 * Every event a webhook endpoint can ask for, in the order the docs list them: the events the areas
 * declare for webhooks (`<area>.events.ts`), composed by src/modules.ts (`WEBHOOK_EVENT_TYPES`) and
 * handed to the service and the store.
 */
export type WebhookCatalogue = readonly string[];

/**
 * How many event types the catalogue holds: the most an endpoint names, which GraphQL's cost
 * analysis assumes of its list (src/modules.ts checks the two agree).
 */
export const WEBHOOK_EVENT_TYPE_COUNT = 8;

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
> & { eventTypes: string[] };

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

/**
 * Whose endpoints a request may touch: a caller's company, or (the command line, run by an
 * operator on the service's own machine) any.
 */
export type EndpointScope = { companyId: string } | 'operator';
