import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../shared/clock';
import type { WebhookEvent } from '../webhooks/webhooks.types';
import type { OutboxRepository } from './outbox.ports';
import { withoutSecrets } from './outbox.service';
import { DeliveryFailure, type EmailAttachment, type OutboxTransports } from './outbox.transports';
import type { DeliveryChannel, OutboxContent, OutboxMessage } from './outbox.types';

export interface OutboxWorkerSettings {
  /** Messages claimed (and sent side by side) per run. */
  batchSize: number;
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
  /** How long a claim holds; a message whose worker died is claimed again after it. */
  leaseMs: number;
  /** Wait after the first failure; doubled after each further one, up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Pause between runs when nothing was due. */
  pollIntervalMs: number;
}

export const DEFAULT_OUTBOX_SETTINGS: OutboxWorkerSettings = {
  batchSize: 10,
  maxAttempts: 8,
  leaseMs: 5 * 60_000,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  pollIntervalMs: 1_000,
};

/** Where the worker reports (a pino logger fits). */
export interface WorkerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Webhook events that report an e-sign message's outcome, written in the transaction recording it. */
export interface DeliveryEvents {
  /** The message as it is once delivered (status sent). */
  delivered(message: OutboxMessage): Promise<WebhookEvent[]>;
  /** The message as it is once given up on (status failed). */
  failed(message: OutboxMessage): Promise<WebhookEvent[]>;
}

export interface OutboxWorkerOptions {
  /** Unique per worker; by default host, process id and a random part. */
  id?: string;
  log?: WorkerLog;
  /** The PDFs an email carries; none when not given (the email links to the documents). */
  attachments?: (message: OutboxMessage) => Promise<EmailAttachment[]>;
  /** Events reporting e-sign messages delivered or failed (webhooks are not reported on). */
  events?: DeliveryEvents;
  /** Hears each attempt's outcome (metrics). */
  onOutcome?: (message: OutboxMessage, outcome: DeliveryOutcome) => void;
}

export interface RunResult {
  claimed: number;
  sent: number;
  /** Failed this time, tried again later. */
  retrying: number;
  /** Failed for the last time. */
  failed: number;
  /** Sent, but the outcome could not be written; the message goes again after its lease. */
  unrecorded: number;
}

/** How an attempt ended: delivered, to be tried again, given up, or delivered without a record of it. */
export type DeliveryOutcome = 'sent' | 'retrying' | 'failed' | 'unrecorded';
type Outcome = DeliveryOutcome;

const MAX_ERROR_LENGTH = 1000;

/** The wait before the next attempt after `attempts` failed ones: base, 2 x base, 4 x base, ... */
export function backoffMs(
  attempts: number,
  settings: Pick<OutboxWorkerSettings, 'backoffBaseMs' | 'backoffMaxMs'>,
): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 40));
  return Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** exponent);
}

function describeError(error: unknown): string {
  // By shape: errors of Node's internals may come from another realm than this module's Error.
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
  const text = typeof message === 'string' ? message : String(message);
  const line = text.replace(/\s+/g, ' ').trim() || 'delivery failed';
  return line.length <= MAX_ERROR_LENGTH ? line : `${line.slice(0, MAX_ERROR_LENGTH)}...`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The content to store in place of a message's own once it is done with, when it has secrets. */
function keptContent(message: OutboxMessage): OutboxContent | undefined {
  return message.content?.secrets?.length ? withoutSecrets(message.content) : undefined;
}

/**
 * Sends the outbox. Each run claims due messages with a lease (exactly one worker gets each, also
 * across processes), hands them to the channel's transport and records the outcome: sent, or a
 * retry after an exponential backoff, or failed after the last attempt. A message is sent again
 * only when a worker died (or lost its database) between sending and recording; the repeat has
 * the same Message-ID / idempotency key. Channels without a transport are never claimed.
 */
export class OutboxWorker {
  readonly id: string;
  private readonly log: WorkerLog;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake() came while a run was busy: the next run starts without a pause. */
  private woken = false;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
    private readonly transports: OutboxTransports,
    private readonly settings: OutboxWorkerSettings = DEFAULT_OUTBOX_SETTINGS,
    private readonly options: OutboxWorkerOptions = {},
  ) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.log = options.log ?? silentLog;
  }

  /** Channels this worker can send. */
  get channels(): DeliveryChannel[] {
    const channels: DeliveryChannel[] = [];
    if (this.transports.email) channels.push('email');
    if (this.transports.sms) channels.push('sms');
    if (this.transports.webhook) channels.push('webhook');
    return channels;
  }

  /** Claims one batch of due messages and delivers it. */
  async runOnce(): Promise<RunResult> {
    const result: RunResult = { claimed: 0, sent: 0, retrying: 0, failed: 0, unrecorded: 0 };
    const channels = this.channels;
    if (channels.length === 0) return result;
    const now = this.clock.now().getTime();
    const rows = await this.repository.claimDue({
      workerId: this.id,
      now: iso(now),
      leaseUntil: iso(now + this.settings.leaseMs),
      channels,
      limit: this.settings.batchSize,
    });
    result.claimed = rows.length;
    const outcomes = await Promise.all(rows.map((message) => this.deliver(message)));
    for (const outcome of outcomes) result[outcome] += 1;
    return result;
  }

  /** Runs until stopped: again at once after a full batch, else after the poll interval or a wake(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  /** Ends the loop after the batch in hand is delivered and recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.loop = null;
  }

  /** Ends the pause between runs early (new messages were queued). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      let full = false;
      this.woken = false;
      try {
        const result = await this.runOnce();
        full = result.claimed >= this.settings.batchSize;
      } catch (error) {
        // The database may be away for a moment; the next run tries again.
        this.log.error({ err: error, worker: this.id }, 'outbox run failed');
      }
      if (!this.running) break;
      if (!full && !this.woken) await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, this.settings.pollIntervalMs);
      timer.unref();
      this.wakeUp = done;
    });
  }

  private async deliver(message: OutboxMessage): Promise<Outcome> {
    const outcome = await this.attempt(message);
    try {
      this.options.onOutcome?.(message, outcome);
    } catch (error) {
      this.log.warn({ err: error, outboxId: message.id }, 'outbox outcome listener failed');
    }
    return outcome;
  }

  private async attempt(message: OutboxMessage): Promise<Outcome> {
    let responseCode: number | null = null;
    try {
      responseCode = (await this.transmit(message)).responseCode;
    } catch (error) {
      return this.recordFailure(message, error);
    }
    try {
      const sentAt = iso(this.clock.now().getTime());
      const events = await this.outcomeEvents('delivered', {
        ...message,
        status: 'sent',
        sentAt,
        lastError: null,
        responseCode,
        claimedBy: null,
        claimedUntil: null,
      });
      await this.repository.markSent(message.id, sentAt, {
        keptContent: keptContent(message),
        responseCode,
        events,
      });
    } catch (error) {
      this.log.error(
        { err: error, outboxId: message.id, worker: this.id },
        'outbox message sent but not recorded; it goes again after its lease',
      );
      return 'unrecorded';
    }
    this.log.info(
      { outboxId: message.id, channel: message.channel, attempts: message.attempts, responseCode },
      'outbox message sent',
    );
    return 'sent';
  }

  /** The events reporting an e-sign message's outcome; none for webhook deliveries. */
  private async outcomeEvents(
    outcome: 'delivered' | 'failed',
    message: OutboxMessage,
  ): Promise<WebhookEvent[] | undefined> {
    if (message.channel === 'webhook' || !this.options.events) return undefined;
    return this.options.events[outcome](message);
  }

  private async transmit(message: OutboxMessage): Promise<{ responseCode: number | null }> {
    if (message.channel === 'webhook') {
      const sender = this.transports.webhook;
      if (!sender) throw new Error('no webhook sender');
      if (!message.webhook) throw new DeliveryFailure('the stored delivery cannot be read', null, true);
      return sender.send(message);
    }
    await this.transmitToPerson(message);
    return { responseCode: null };
  }

  private async transmitToPerson(message: OutboxMessage): Promise<void> {
    const content = message.content;
    if (!content) throw new Error('the stored message cannot be read');
    if (message.channel === 'email') {
      const transport = this.transports.email;
      if (!transport) throw new Error('no email transport');
      const attachments = this.options.attachments ? await this.options.attachments(message) : [];
      await transport.send({
        outboxId: message.id,
        to: message.recipient,
        subject: content.subject,
        text: content.text,
        html: content.html,
        attachments,
      });
      return;
    }
    const transport = this.transports.sms;
    if (!transport) throw new Error('no SMS transport');
    await transport.send({
      outboxId: message.id,
      to: message.recipient,
      text: content.text,
      documents: content.documents,
    });
  }

  /** The wait before the next attempt after the message's failed ones; null when none is left. */
  private retryDelay(message: OutboxMessage): number | null {
    if (message.channel === 'webhook' && this.transports.webhook) {
      return this.transports.webhook.retryDelayMs(message.attempts);
    }
    return message.attempts >= this.settings.maxAttempts ? null : backoffMs(message.attempts, this.settings);
  }

  private async recordFailure(message: OutboxMessage, error: unknown): Promise<Outcome> {
    const lastError = describeError(error);
    const failure = error instanceof DeliveryFailure ? error : null;
    // An unreadable message never improves; anything else is tried again until the limit.
    const readable = message.channel === 'webhook' ? Boolean(message.webhook) : message.content !== null;
    const delay = this.retryDelay(message);
    const giveUp = !readable || failure?.final === true || delay === null;
    const now = this.clock.now().getTime();
    const nextAttemptAt = giveUp || delay === null ? now : now + delay;
    const responseCode = failure?.responseCode ?? null;
    const details = { outboxId: message.id, channel: message.channel, attempts: message.attempts, lastError };
    try {
      const events = giveUp
        ? await this.outcomeEvents('failed', {
            ...message,
            status: 'failed',
            nextAttemptAt: iso(nextAttemptAt),
            lastError,
            responseCode,
            claimedBy: null,
            claimedUntil: null,
          })
        : undefined;
      const recorded = await this.repository.markAttemptFailed(message.id, this.id, {
        status: giveUp ? 'failed' : 'pending',
        nextAttemptAt: iso(nextAttemptAt),
        lastError,
        keptContent: giveUp ? keptContent(message) : undefined,
        responseCode,
        events,
      });
      if (!recorded) this.log.warn(details, 'outbox claim lost before the failure was recorded');
    } catch (error) {
      this.log.error({ ...details, err: error }, 'outbox failure not recorded; retried after the lease');
      return 'unrecorded';
    }
    if (giveUp) this.log.error(details, 'outbox message failed for good');
    else
      this.log.warn({ ...details, nextAttemptAt: iso(nextAttemptAt) }, 'outbox message failed; will retry');
    return giveUp ? 'failed' : 'retrying';
  }
}
