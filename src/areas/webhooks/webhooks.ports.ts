import type { Path } from '../../kernel/errors';
import type { Slice, SliceRequest } from '../../kernel/connections';
import type { OutboxStatus } from '../outbox/outbox.types';
import type {
  EndpointScope,
  DisabledReason,
  EndpointSecrets,
  StoredWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.types';

/** Where endpoints are kept, and their deliveries read back. */
export interface WebhookEndpointsRepository {
  insert(endpoint: StoredWebhookEndpoint): Promise<void>;
  /** The endpoint with its secrets opened; throws `SecretUnreadable` when a stored secret cannot be. */
  find(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /** The endpoint as callers see it (its secrets are not read). */
  findEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** The company's endpoints, oldest first (their secrets are not read). */
  ofCompany(companyId: string): Promise<WebhookEndpoint[]>;
  countOfCompany(companyId: string): Promise<number>;
  /** Disables (with why) or, with `at` null, enables; enabling forgets earlier failures. */
  setDisabled(id: string, at: string | null, reason: DisabledReason | null): Promise<void>;
  replaceSecrets(id: string, secrets: EndpointSecrets, rotatedAt: string): Promise<void>;
  /** A delivery was answered 2xx: the endpoint is healthy again. */
  recordSuccess(id: string): Promise<void>;
  /**
   * A delivery failed at `at`. Remembers when failures began, and disables the endpoint (reason
   * `failing`) when they began at or before `disableIfFailingSince`; true when it disabled it now.
   */
  recordFailure(id: string, at: string, disableIfFailingSince: string): Promise<boolean>;
  /** The endpoint's latest deliveries, newest first, optionally of one status. */
  deliveries(endpointId: string, limit: number, status?: OutboxStatus): Promise<WebhookDelivery[]>;
  /** A slice of the endpoint's deliveries from a position, newest first (created_at, then id), and how many match. */
  deliverySlice(
    endpointId: string,
    slice: SliceRequest,
    status?: OutboxStatus,
  ): Promise<Slice<WebhookDelivery>>;
  /** A webhook delivery by its id (an outbox message of channel webhook). */
  findDelivery(id: string): Promise<WebhookDelivery | undefined>;
  /**
   * Queues a delivery again, due at `at`, with a fresh count of attempts; false when it is being
   * sent right now (then nothing changes).
   */
  requeueDelivery(id: string, at: string): Promise<boolean>;
}

/** What an endpoint URL's host name resolves to. */
export interface HostResolver {
  /** Every address of the name; an empty list when it does not resolve. */
  addresses(host: string): Promise<string[]>;
}

/** One webhook POST, signed and ready. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Ends the request at once when aborted (the worker is stopping). */
  signal?: AbortSignal;
}

/** What the endpoint answered: its status and the start of its body. */
export interface WebhookResponse {
  status: number;
  /** At most the adapter's bound, as text. */
  body: string;
}

/**
 * Sends one webhook over HTTP: resolves the host, refuses addresses that are not public (unless the
 * host is allowed), connects to the checked address, follows no redirect and reads a bounded body.
 * Rejects when no answer came (refused address, connection error, timeout).
 */
export interface WebhookHttpTransport {
  post(request: WebhookRequest): Promise<WebhookResponse>;
  close(): void;
}

/** What the other areas read of the webhooks (`WebhooksService` implements it). */
export interface WebhookReads {
  /** The endpoint, if it is in scope (404 otherwise). */
  endpointFor(scope: EndpointScope, id: string, path?: Path): Promise<WebhookEndpoint>;
  /** The delivery, when its endpoint is in scope; null otherwise. */
  deliveryInScope(scope: EndpointScope, messageId: string): Promise<WebhookDelivery | null>;
}
