import { DeliveryFailure, type WebhookSender } from '../outbox/transports.ports';
import type { OutboxMessage } from '../outbox/outbox.types';
import type { Clock } from '../../kernel/clock';
import { describePlace, SecretUnreadable } from '../../kernel/secret-box';
import { toStoredInstant } from '../../kernel/time';
import type { WebhookEndpointsRepository, WebhookHttpTransport } from './webhooks.ports';
import { webhookHeaders } from './webhooks.signature';
import type { StoredWebhookEndpoint } from './webhooks.types';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The waits after the 1st, 2nd, ... failed attempt, before jitter: growing from seconds to hours,
 * eight attempts over about 27 hours, then the delivery has failed.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Each wait is moved by up to this fraction either way, so failed deliveries do not return in step. */
export const RETRY_JITTER = 0.2;

/** How much of an answer's body a failure records. */
const ANSWER_EXCERPT = 200;

/**
 * The wait after `attempts` failed attempts: the schedule's, moved by up to the jitter either way
 * (`random` gives numbers in [0, 1)); null when the schedule has no more attempts.
 */
export function webhookRetryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  const base = WEBHOOK_RETRY_SCHEDULE_MS[Math.max(0, attempts - 1)];
  if (base === undefined) return null;
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(base * factor);
}

export interface DispatchSettings {
  /** An endpoint whose deliveries have failed (none succeeding) for this long is disabled. */
  disableAfterMs: number;
  /** Numbers in [0, 1) for the jitter; Math.random by default. */
  random?: () => number;
}

export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** Where the dispatcher reports what only a log should hold. */
export interface DispatchLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Delivers webhook messages for the outbox worker, as Standard Webhooks says: the stored body,
 * POSTed with `webhook-id` (the message id, the same on every attempt), `webhook-timestamp` (this
 * attempt) and `webhook-signature` (`v1,` HMAC-SHA256 with the endpoint's secret, and with the
 * previous one too for a day after a rotation). A 2xx answer is success; anything else fails the
 * attempt, and failures for days disable the endpoint.
 */
export class WebhookDispatcher implements WebhookSender {
  private readonly random: () => number;

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly transport: WebhookHttpTransport,
    private readonly clock: Clock,
    private readonly settings: DispatchSettings = { disableAfterMs: DEFAULT_DISABLE_AFTER_MS },
    private readonly log?: DispatchLog,
  ) {
    this.random = settings.random ?? Math.random;
  }

  async send(message: OutboxMessage, signal?: AbortSignal): Promise<{ responseCode: number | null }> {
    const webhook = message.webhook;
    if (!webhook) throw new DeliveryFailure('the stored delivery cannot be read', null, true);
    const endpoint = await this.endpointOf(message.recipient);
    if (!endpoint) throw new DeliveryFailure('the endpoint no longer exists', null, true);
    if (endpoint.disabledAt) {
      throw new DeliveryFailure('the endpoint is disabled; enable it and replay the delivery', null, true);
    }
    const now = this.clock.now();
    const headers = {
      'content-type': 'application/json',
      ...webhookHeaders(message.id, now, webhook.body, secretsAt(endpoint, toStoredInstant(now))),
    };
    let status: number;
    let answer: string;
    try {
      ({ status, body: answer } = await this.transport.post({
        url: endpoint.url,
        headers,
        body: webhook.body,
        signal,
      }));
    } catch (error) {
      // An attempt the worker cut short says nothing about the endpoint.
      if (!signal?.aborted) await this.failed(endpoint, now);
      throw error;
    }
    if (status >= 200 && status < 300) {
      if (endpoint.failingSince) await this.endpoints.recordSuccess(endpoint.id);
      return { responseCode: status };
    }
    await this.failed(endpoint, now);
    const excerpt = answer.replace(/\s+/g, ' ').trim().slice(0, ANSWER_EXCERPT);
    const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    throw new DeliveryFailure(
      `endpoint answered ${status}${redirect}${excerpt ? `: ${excerpt}` : ''}`,
      status,
    );
  }

  /**
   * The endpoint with its secrets opened. A secret that cannot be opened fails the attempt (it is
   * retried: the operator may give the right key meanwhile) and tells the operator which row.
   */
  private async endpointOf(id: string): Promise<StoredWebhookEndpoint | undefined> {
    try {
      return await this.endpoints.find(id);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      this.log?.error(
        { table: error.place.table, column: error.place.column, rowId: error.place.rowId },
        `stored secret cannot be read: ${describePlace(error.place)}: ${error.reason}`,
      );
      throw new DeliveryFailure(
        `the endpoint's signing secret cannot be read (${describePlace(error.place)})`,
      );
    }
  }

  /** The schedule's wait after `attempts` failed attempts, with jitter; null after the last. */
  retryDelayMs(attempts: number): number | null {
    return webhookRetryDelayMs(attempts, this.random);
  }

  close(): void {
    this.transport.close();
  }

  private async failed(endpoint: StoredWebhookEndpoint, now: Date): Promise<void> {
    const threshold = toStoredInstant(new Date(now.getTime() - this.settings.disableAfterMs));
    const disabled = await this.endpoints.recordFailure(endpoint.id, toStoredInstant(now), threshold);
    if (disabled) {
      this.log?.warn(
        { endpointId: endpoint.id, failingSince: endpoint.failingSince },
        'webhook endpoint disabled: its deliveries have failed for too long',
      );
    }
  }
}

/** The secrets that sign now: the current one, and the one before while it is honoured. */
export function secretsAt(endpoint: StoredWebhookEndpoint, now: string): string[] {
  const { current, previous, previousExpiresAt } = endpoint.secrets;
  return previous && previousExpiresAt && previousExpiresAt > now ? [current, previous] : [current];
}
