import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { Clock } from '../../kernel/clock';
import type { DeliveryOutcome } from '../../kernel/delivery';
import type { DomainEvent } from '../../kernel/domain-events';
import type { DeliveryEvents, OutboxRepository } from './outbox.ports';
import { withoutSecrets } from './outbox.service';
import { DeliveryFailure, type EmailAttachment, type OutboxTransports } from './transports.ports';
import type { DeliveryChannel, OutboxContent, OutboxMessage } from './outbox.types';

export interface OutboxWorkerSettings {
  /** Most messages one claim takes (and one `runOnce` sends per lane). */
  batchSize: number;
  /** Email and SMS attempts in flight at once (their lane). */
  concurrency: number;
  /** Webhook attempts in flight at once (their lane, apart from email and SMS). */
  webhookConcurrency: number;
  /** One webhook endpoint's attempts in flight at once, across every worker on the database. */
  webhookEndpointConcurrency: number;
  /** One company's webhook attempts in flight at once (all its endpoints), across every worker. */
  webhookCompanyConcurrency: number;
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
  /** How long a claim holds; a message whose worker died is claimed again after it. */
  leaseMs: number;
  /** Wait after the first failure; doubled after each further one, up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Pause between claims when nothing more was due. */
  pollIntervalMs: number;
  /** How long stop() lets the attempts in hand finish before it aborts them. */
  stopGraceMs: number;
}

export const DEFAULT_OUTBOX_SETTINGS: OutboxWorkerSettings = {
  batchSize: 10,
  concurrency: 10,
  webhookConcurrency: 64,
  webhookEndpointConcurrency: 2,
  webhookCompanyConcurrency: 16,
  maxAttempts: 8,
  leaseMs: 5 * 60_000,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  pollIntervalMs: 1_000,
  stopGraceMs: 5_000,
};

/** Where the worker reports (a pino logger fits). */
export interface WorkerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

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

export type { DeliveryOutcome };
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

/** A lane that finds too little claims at most 1/this of the time (below the poll interval). */
const CLAIM_SHARE_INVERSE = 10;

/** An abort controller whose signal every attempt in flight may listen on (more than Node's ten). */
function unlimitedAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** A wake-up call that is kept when nobody waits, so the next wait returns at once. */
class Wakeup {
  private pending = false;
  private waiter: (() => void) | null = null;

  notify(): void {
    if (this.waiter) this.waiter();
    else this.pending = true;
  }

  /** Resolves at the next notify() (or at once after one nobody heard), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.waiter = done;
    });
  }
}

/**
 * Messages that share a concurrency limit and a claim loop: email and SMS in one, webhooks in the
 * other, so neither ever waits for a slot the other holds.
 */
interface Lane {
  readonly name: 'people' | 'webhooks';
  readonly channels: DeliveryChannel[];
  readonly concurrency: number;
  /** At most this many attempts of one recipient in flight, across workers. */
  readonly perRecipient?: number;
  /** At most this many attempts of one company in flight, across workers. */
  readonly perCompany?: number;
  readonly inFlight: Set<Promise<Outcome>>;
  readonly wakeup: Wakeup;
}

/**
 * Sends the outbox. Messages are claimed with a lease (exactly one worker gets each, also across
 * processes), handed to the channel's transport and the outcome recorded: sent, or a retry after
 * a backoff, or failed after the last attempt. Email and SMS have a lane of their own, apart from
 * webhooks, each with its own limit of attempts in flight; a lane claims more as soon as a slot
 * frees, never waiting for a whole batch, and a webhook endpoint has at most a few attempts in
 * flight and a company (all its endpoints) at most its share, so slow endpoints hold only their
 * own slots and a company's many slow ones only its share. A message is sent again only when a
 * worker died (or lost its database) between sending and recording; the repeat has the same
 * Message-ID / idempotency key. Channels without a transport are never claimed.
 */
export class OutboxWorker {
  readonly id: string;
  private readonly log: WorkerLog;
  private readonly lanes: Lane[];
  private running = false;
  private loops: Promise<void>[] = [];
  /** Aborts the attempts in hand when stop() has waited long enough for them. */
  private aborter = unlimitedAbortController();

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
    private readonly transports: OutboxTransports,
    private readonly settings: OutboxWorkerSettings = DEFAULT_OUTBOX_SETTINGS,
    private readonly options: OutboxWorkerOptions = {},
  ) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.log = options.log ?? silentLog;
    const people: DeliveryChannel[] = [];
    if (transports.email) people.push('email');
    if (transports.sms) people.push('sms');
    const lanes: Lane[] = [];
    if (people.length > 0) {
      lanes.push({
        name: 'people',
        channels: people,
        concurrency: settings.concurrency,
        inFlight: new Set(),
        wakeup: new Wakeup(),
      });
    }
    if (transports.webhook) {
      lanes.push({
        name: 'webhooks',
        channels: ['webhook'],
        concurrency: settings.webhookConcurrency,
        perRecipient: settings.webhookEndpointConcurrency,
        perCompany: settings.webhookCompanyConcurrency,
        inFlight: new Set(),
        wakeup: new Wakeup(),
      });
    }
    this.lanes = lanes;
  }

  /** Channels this worker can send. */
  get channels(): DeliveryChannel[] {
    return this.lanes.flatMap((lane) => lane.channels);
  }

  /**
   * Claims due messages in each lane (up to the batch size and the lane's free slots) and
   * delivers them, resolving when all of them are recorded: one step, for tests and one-off runs.
   */
  async runOnce(): Promise<RunResult> {
    const result: RunResult = { claimed: 0, sent: 0, retrying: 0, failed: 0, unrecorded: 0 };
    const claims = await Promise.all(
      this.lanes.map(async (lane) => {
        const rows = await this.claim(lane, Math.min(this.settings.batchSize, this.room(lane)));
        return rows.map((message) => this.launch(lane, message));
      }),
    );
    const attempts = claims.flat();
    result.claimed = attempts.length;
    for (const outcome of await Promise.all(attempts)) result[outcome] += 1;
    return result;
  }

  /** Runs until stopped: each lane claims whenever it has free slots and something is due. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.aborter = unlimitedAbortController();
    this.loops = this.lanes.map((lane) => this.runLane(lane));
  }

  /**
   * Stops claiming, then lets the attempts in hand finish for up to `stopGraceMs`; those still
   * going then are aborted and put back, due at once, for the next worker.
   */
  async stop(): Promise<void> {
    this.running = false;
    for (const lane of this.lanes) lane.wakeup.notify();
    await Promise.all(this.loops);
    this.loops = [];
    const attempts = this.lanes.flatMap((lane) => [...lane.inFlight]);
    if (attempts.length === 0) return;
    const settled = Promise.allSettled(attempts);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => {
      timer = setTimeout(() => resolve('grace over'), this.settings.stopGraceMs);
    });
    const first = await Promise.race([settled, graceOver]);
    clearTimeout(timer);
    if (first === 'grace over') {
      this.log.warn(
        { worker: this.id, attempts: attempts.length },
        'outbox worker stopping: aborting the attempts still in flight',
      );
      this.aborter.abort();
      await settled;
    }
  }

  /** Ends each lane's pause early (new messages were queued). */
  wake(): void {
    for (const lane of this.lanes) lane.wakeup.notify();
  }

  private room(lane: Lane): number {
    return Math.max(0, lane.concurrency - lane.inFlight.size);
  }

  private async claim(lane: Lane, limit: number): Promise<OutboxMessage[]> {
    if (limit < 1) return [];
    const now = this.clock.now().getTime();
    return this.repository.claimDue({
      workerId: this.id,
      now: iso(now),
      leaseUntil: iso(now + this.settings.leaseMs),
      channels: lane.channels,
      limit,
      perRecipient: lane.perRecipient,
      perCompany: lane.perCompany,
    });
  }

  /** Starts delivering a claimed message in the lane's slot; the slot frees when it is recorded. */
  private launch(lane: Lane, message: OutboxMessage): Promise<Outcome> {
    const attempt = this.deliver(message).finally(() => {
      lane.inFlight.delete(attempt);
      lane.wakeup.notify();
    });
    lane.inFlight.add(attempt);
    return attempt;
  }

  private async runLane(lane: Lane): Promise<void> {
    // After a claim that found less than it asked for, the next one waits until claiming has
    // taken at most a tenth of the time, so a burst of freed slots and wake-ups shares one claim
    // (a claim under the per-endpoint cap ranks every due delivery: slower with a large backlog).
    let nextClaimAt = 0;
    while (this.running) {
      const wanted = Math.min(this.settings.batchSize, this.room(lane));
      let more = false;
      if (wanted > 0) {
        // Wake-ups in the meantime are kept in the claim that follows; stop() ends the wait.
        for (let early = nextClaimAt - performance.now(); early > 0 && this.running;) {
          await lane.wakeup.wait(early);
          early = nextClaimAt - performance.now();
        }
        if (!this.running) break;
        try {
          const started = performance.now();
          const rows = await this.claim(lane, wanted);
          for (const message of rows) void this.launch(lane, message);
          // A full claim: more may be due at once.
          more = rows.length === wanted;
          const took = performance.now() - started;
          nextClaimAt = more
            ? 0
            : started + Math.min(took * CLAIM_SHARE_INVERSE, this.settings.pollIntervalMs);
        } catch (error) {
          // The database may be away for a moment; the next claim tries again.
          this.log.error({ err: error, worker: this.id, lane: lane.name }, 'outbox claim failed');
        }
      }
      if (!this.running) break;
      // Otherwise wait for a free slot (which may also let a capped endpoint go), a wake() or the poll.
      if (!more || this.room(lane) === 0) await lane.wakeup.wait(this.settings.pollIntervalMs);
    }
  }

  private async deliver(message: OutboxMessage): Promise<Outcome> {
    let outcome: Outcome;
    try {
      outcome = await this.attempt(message);
    } catch (error) {
      // attempt() records every failure; this is a bug, and the lease brings the message back.
      this.log.error({ err: error, outboxId: message.id, worker: this.id }, 'outbox attempt failed');
      outcome = 'unrecorded';
    }
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
  ): Promise<DomainEvent[] | undefined> {
    if (message.channel === 'webhook' || !this.options.events) return undefined;
    return this.options.events[outcome](message);
  }

  private async transmit(message: OutboxMessage): Promise<{ responseCode: number | null }> {
    if (message.channel === 'webhook') {
      const sender = this.transports.webhook;
      if (!sender) throw new Error('no webhook sender');
      if (!message.webhook) throw new DeliveryFailure('the stored delivery cannot be read', null, true);
      return sender.send(message, this.aborter.signal);
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
      await transport.send(
        {
          outboxId: message.id,
          to: message.recipient,
          subject: content.subject,
          text: content.text,
          html: content.html,
          attachments,
        },
        this.aborter.signal,
      );
      return;
    }
    const transport = this.transports.sms;
    if (!transport) throw new Error('no SMS transport');
    await transport.send(
      {
        outboxId: message.id,
        to: message.recipient,
        text: content.text,
        documents: content.documents,
      },
      this.aborter.signal,
    );
  }

  /** The wait before the next attempt after the message's failed ones; null when none is left. */
  private retryDelay(message: OutboxMessage): number | null {
    if (message.channel === 'webhook' && this.transports.webhook) {
      return this.transports.webhook.retryDelayMs(message.attempts);
    }
    return message.attempts >= this.settings.maxAttempts ? null : backoffMs(message.attempts, this.settings);
  }

  private async recordFailure(message: OutboxMessage, error: unknown): Promise<Outcome> {
    // Cut short by stop(): not the receiver's fault, so due again at once (for another worker).
    const stopped = this.aborter.signal.aborted;
    const lastError = stopped ? 'the delivery worker stopped during the attempt' : describeError(error);
    const failure = error instanceof DeliveryFailure ? error : null;
    // An unreadable message never improves; anything else is tried again until the limit.
    const readable = message.channel === 'webhook' ? Boolean(message.webhook) : message.content !== null;
    const delay = stopped ? 0 : this.retryDelay(message);
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
