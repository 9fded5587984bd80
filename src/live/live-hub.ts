import { DomainError } from '../kernel/errors';
import type { Clock } from '../kernel/clock';
import type { LiveEvent, LiveFeed, LiveFilter, LiveItem, LiveJournal } from './live.ports';
import { LiveSubscriber } from './live-subscriber';
import type { LiveSource, SourceLog } from './live-sources';
import { WorkSlices } from './work-slices';

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
/** How long the hub offers events to subscribers before requests run (see WorkSlices). */
const OFFERING_MS_PER_TURN = 1;

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
  /** Events read and not yet offered to every subscriber, in order. */
  private readonly toOffer: LiveEvent[] = [];
  private offering = false;
  private readonly slices = new WorkSlices(OFFERING_MS_PER_TURN);

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

  /**
   * Offers the events to their subscribers, in order, after those read before them. Offering an
   * event to ten thousand subscribers takes milliseconds, and a read may bring several: it is done
   * in slices, requests running between two. A subscriber that joins meanwhile may miss the rest of
   * an event committed before it joined (with `since`, its replay has it).
   */
  private deliver(events: readonly LiveEvent[]): void {
    this.toOffer.push(...events);
    if (this.offering) return;
    this.offering = true;
    this.offerAll().catch((error: unknown) =>
      this.log.warn({ err: error }, 'live events could not be offered to their subscribers'),
    );
  }

  private async offerAll(): Promise<void> {
    this.slices.begin();
    try {
      for (let event = this.toOffer.shift(); event; event = this.toOffer.shift()) {
        for (const subscribers of [this.byFacility.get(event.facilityId), this.byFacility.get(null)]) {
          for (const subscriber of subscribers ?? []) {
            subscriber.offer(event);
            if (this.slices.spent()) await this.slices.next();
          }
        }
      }
    } finally {
      this.offering = false;
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
