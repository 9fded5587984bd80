import { DomainError } from '../kernel/errors';
import type { Clock } from '../kernel/clock';
import type { LiveEvent, LiveFeed, LiveFilter, LiveItem, LiveJournal } from './live.ports';
import { LiveSubscriber } from './live-subscriber';
import type { LiveSource, SourceLog } from './live-sources';

export interface LiveHubSettings {
  /** Events one subscription may have waiting unread before it is dropped. */
  queueLimit: number;
  /** How far back `since` / `Last-Event-ID` may reach, in minutes (older events are deleted). */
  replayWindowMinutes: number;
  /** Events one replay may send at most; more missed than this is "too old, re-query". */
  replayLimit: number;
}

/** How often old journal rows are deleted. */
const PRUNE_EVERY_MS = 60_000;

/**
 * This instance's subscribers of live events, fed by one source (the journal after commit): each
 * event is offered to the subscribers of its facility. Started at the first subscription.
 */
export class LiveHub implements LiveFeed {
  /** Subscribers by the facility they watch; those of any facility under null. */
  private readonly byFacility = new Map<string | null, Set<LiveSubscriber>>();
  private starting: Promise<void> | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly journal: LiveJournal,
    private readonly source: LiveSource,
    private readonly settings: LiveHubSettings,
    private readonly clock: Clock,
    private readonly log: SourceLog,
  ) {}

  /** Subscriptions open on this instance. */
  get subscriberCount(): number {
    let count = 0;
    for (const subscribers of this.byFacility.values()) count += subscribers.size;
    return count;
  }

  /** A change committed in this process (SQLite reads at once rather than at the next poll). */
  wake(): void {
    this.source.wake();
  }

  async subscribe(
    filter: LiveFilter,
    since: number | null,
    options: { start?: boolean } = {},
  ): Promise<AsyncIterableIterator<LiveItem>> {
    if (this.closed) throw new DomainError('gone', 'the service is shutting down; subscribe again');
    await this.start();
    const subscriber = new LiveSubscriber(
      filter,
      this.settings.queueLimit,
      (done) => this.remove(done),
      options.start,
    );
    // Subscribed before the replay is read, so nothing committed meanwhile falls between the two.
    let subscribers = this.byFacility.get(filter.facilityId);
    if (!subscribers) this.byFacility.set(filter.facilityId, (subscribers = new Set()));
    subscribers.add(subscriber);
    if (since === null) return subscriber;
    try {
      subscriber.replay(await this.missed(filter, since));
    } catch (error) {
      await subscriber.return();
      throw error;
    }
    return subscriber;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    for (const subscribers of this.byFacility.values()) {
      for (const subscriber of subscribers) {
        subscriber.end({
          kind: 'ended',
          reason: 'closing',
          message: 'the service is shutting down; subscribe again with since',
        });
      }
    }
    await this.starting?.catch(() => undefined);
    await this.source.close();
  }

  private async missed(filter: LiveFilter, since: number): Promise<LiveEvent[]> {
    const bounds = await this.journal.bounds();
    const tooOld = () =>
      new DomainError(
        'gone',
        `events after ${since} are no longer kept (the last ${this.settings.replayWindowMinutes} minutes and at most ${this.settings.replayLimit} events replay); query the current state again, then subscribe without since`,
      );
    if (bounds !== null && since < bounds.first - 1) throw tooOld();
    const events = await this.journal.after(since, this.settings.replayLimit + 1, filter);
    if (events.length > this.settings.replayLimit) throw tooOld();
    return events;
  }

  /**
   * Deletes journal rows older than the replay window every minute, subscribers or not: every
   * change writes one, so the journal must not wait for a subscriber to be kept short.
   */
  startPruning(): void {
    if (this.pruneTimer !== null || this.closed) return;
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  private start(): Promise<void> {
    this.starting ??= this.source.start((events) => this.deliver(events));
    // A failed start is tried again by the next subscription.
    return this.starting.catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
  }

  private deliver(events: readonly LiveEvent[]): void {
    const anyFacility = this.byFacility.get(null);
    for (const event of events) {
      for (const subscriber of this.byFacility.get(event.facilityId) ?? []) subscriber.offer(event);
      for (const subscriber of anyFacility ?? []) subscriber.offer(event);
    }
  }

  private remove(subscriber: LiveSubscriber): void {
    const subscribers = this.byFacility.get(subscriber.filter.facilityId);
    subscribers?.delete(subscriber);
    if (subscribers?.size === 0) this.byFacility.delete(subscriber.filter.facilityId);
  }

  private prune(): void {
    const cutoff = new Date(
      this.clock.now().getTime() - this.settings.replayWindowMinutes * 60_000,
    ).toISOString();
    this.journal
      .pruneBefore(cutoff)
      .catch((error: unknown) => this.log.warn({ err: error }, 'old live events could not be deleted'));
  }
}
