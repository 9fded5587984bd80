import type { LiveEvent, LiveFilter, LiveItem } from './live.ports';

/** Whether the filter wants the event. */
export function wants(filter: LiveFilter, event: LiveEvent): boolean {
  if (filter.facilityId !== null && event.facilityId !== filter.facilityId) return false;
  if (filter.types && filter.types.length > 0 && !filter.types.includes(event.type)) return false;
  if (filter.eventId && event.eventId !== filter.eventId) return false;
  return true;
}

/**
 * One subscription's queue: events wait here until its transport takes them. At most `limit` wait;
 * one more ends the subscription (slow consumer) and lets go of what waited, so a client that does
 * not read never grows the process's memory.
 */
export class LiveSubscriber implements AsyncIterableIterator<LiveItem> {
  private readonly queue: LiveItem[] = [];
  private waiting: ((result: IteratorResult<LiveItem>) => void) | null = null;
  private ended = false;
  private finished = false;
  /**
   * The events a replay sent: their live notice may come after the replay was read (the two race),
   * and must not send them twice. At most the replay's limit of them.
   */
  private replayed: ReadonlySet<number> = new Set();
  private listener: ((event: LiveEvent | null) => void) | null = null;

  constructor(
    readonly filter: LiveFilter,
    private readonly limit: number,
    private readonly onFinish: (subscriber: LiveSubscriber) => void,
    start = false,
  ) {
    if (start) this.queue.push({ kind: 'start' });
  }

  /**
   * Tells `listener` of each item queued from now on: the live event offered, or null for the end.
   * A reader that takes items with `peek` and `take` (the live groups) rather than awaiting `next`.
   */
  listen(listener: (event: LiveEvent | null) => void): void {
    this.listener = listener;
  }

  /** The first item waiting, left in place; undefined when none waits. */
  peek(): LiveItem | undefined {
    return this.queue[0];
  }

  /** Takes the first item waiting. */
  take(): LiveItem | undefined {
    return this.queue.shift();
  }

  /** Events waiting to be taken. */
  get waitingCount(): number {
    return this.queue.length;
  }

  /** Queues an event the filter wants; past the limit, ends the subscription instead. */
  offer(event: LiveEvent): void {
    if (this.ended || this.replayed.has(event.seq) || !wants(this.filter, event)) return;
    if (this.queue.length >= this.limit) {
      this.end({
        kind: 'ended',
        reason: 'slow_consumer',
        message: `subscription dropped: more than ${this.limit} events waited unread (slow consumer); subscribe again with since`,
      });
      return;
    }
    this.push({ kind: 'event', event });
    this.listener?.(event);
  }

  /** Puts the missed events first, leaving out those already queued live or yet to be offered. */
  replay(events: readonly LiveEvent[]): void {
    const replayed = new Set(events.map((event) => event.seq));
    this.replayed = replayed;
    const start = this.queue.filter((item) => item.kind === 'start');
    const live = this.queue.filter((item) => item.kind === 'event' && !replayed.has(item.event.seq));
    this.queue.length = 0;
    this.queue.push(...start);
    for (const event of events) if (wants(this.filter, event)) this.queue.push({ kind: 'event', event });
    this.queue.push(...live);
    this.flush();
  }

  /** Ends the subscription with a last item saying why (what waited is let go). */
  end(item: Extract<LiveItem, { kind: 'ended' }>): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.push(item);
    this.listener?.(null);
  }

  next(): Promise<IteratorResult<LiveItem>> {
    const item = this.queue.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.ended) return this.return();
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<LiveItem>> {
    this.ended = true;
    this.queue.length = 0;
    this.listener = null;
    if (!this.finished) {
      this.finished = true;
      this.onFinish(this);
    }
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<LiveItem>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveItem> {
    return this;
  }

  private push(item: LiveItem): void {
    this.queue.push(item);
    this.flush();
  }

  private flush(): void {
    if (!this.waiting || this.queue.length === 0) return;
    const waiting = this.waiting;
    this.waiting = null;
    waiting({ value: this.queue.shift()!, done: false });
  }
}
