import type { LiveEvent, LiveJournal, LiveListening, LiveNotifications } from '../areas/live/live.types';

/** Events read from the journal at once, at most. */
const READ_BATCH = 500;
/** How long a lost LISTEN connection waits before connecting again, at most. */
const RECONNECT_MAX_MS = 10_000;

/** Where new committed events come from: this instance's and every other's. */
export interface LiveSource {
  start(deliver: (events: LiveEvent[]) => void): Promise<void>;
  /** A change committed in this process: look now rather than at the next poll. */
  wake(): void;
  close(): Promise<void>;
}

export interface SourceLog {
  warn(details: object, message: string): void;
}

/**
 * SQLite (one process): reads the journal after the last number it saw, when woken by a commit and
 * every `pollMs` (for the writes that wake nobody, such as delivery outcomes). SQLite numbers rows
 * in commit order and Kysely's one connection reads only committed rows between transactions.
 */
export class PollingSource implements LiveSource {
  private cursor = 0;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private deliver: (events: LiveEvent[]) => void = () => undefined;

  constructor(
    private readonly journal: LiveJournal,
    private readonly pollMs: number,
    private readonly log: SourceLog,
  ) {}

  async start(deliver: (events: LiveEvent[]) => void): Promise<void> {
    this.deliver = deliver;
    this.cursor = (await this.journal.bounds())?.last ?? 0;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
  }

  wake(): void {
    if (this.timer === null) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll()
      .catch((error: unknown) => this.log.warn({ err: error }, 'live events could not be read'))
      .finally(() => {
        this.reading = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
  }

  private async readAll(): Promise<void> {
    for (;;) {
      const events = await this.journal.after(this.cursor, READ_BATCH);
      if (events.length === 0) return;
      this.cursor = events[events.length - 1].seq;
      this.deliver(events);
      if (events.length < READ_BATCH) return;
    }
  }
}

/**
 * PostgreSQL (any number of instances): LISTENs on the schema's channel, where each transaction
 * that writes live events notifies their numbers; PostgreSQL delivers a notification only once its
 * transaction commits, so events arrive after commit only, on every instance. A lost connection is
 * made again, and what committed meanwhile is read after the last number seen.
 */
export class PgNotifySource implements LiveSource {
  private listening: LiveListening | null = null;
  private lastSeq = 0;
  private closed = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | null = null;
  private deliver: (events: LiveEvent[]) => void = () => undefined;

  constructor(
    private readonly notifications: LiveNotifications,
    private readonly journal: LiveJournal,
    private readonly log: SourceLog,
  ) {}

  async start(deliver: (events: LiveEvent[]) => void): Promise<void> {
    this.deliver = deliver;
    this.lastSeq = (await this.journal.bounds())?.last ?? 0;
    await this.connect();
  }

  wake(): void {
    // Notifications say when: a commit of this process is heard like any other instance's.
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const listening = this.listening;
    this.listening = null;
    await listening?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    let connected: LiveListening | null = null;
    connected = await this.notifications.listen(
      (payload) => this.heard(payload),
      (error) => {
        this.log.warn({ err: error }, 'live events: LISTEN connection lost; connecting again');
        if (connected) this.reconnect(connected);
      },
    );
    this.listening = connected;
    this.retryMs = 250;
  }

  private reconnect(lost: LiveListening): void {
    if (this.closed || this.listening !== lost) return;
    this.listening = null;
    void lost.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect()
        .then(() => this.catchUp())
        .catch((error: unknown) => {
          this.log.warn({ err: error }, 'live events: LISTEN connection failed');
          this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
          this.listening = lost;
          this.reconnect(lost);
        });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private heard(payload: string): void {
    const seqs = payload
      .split(',')
      .map(Number)
      .filter((seq) => Number.isSafeInteger(seq) && seq > 0);
    if (seqs.length === 0) return;
    this.journal
      .bySeqs(seqs)
      .then((events) => this.handOver(events))
      .catch((error: unknown) => this.log.warn({ err: error }, 'live events could not be read'));
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const events = await this.journal.after(this.lastSeq, READ_BATCH);
      this.handOver(events);
      if (events.length < READ_BATCH) return;
    }
  }

  private handOver(events: LiveEvent[]): void {
    if (events.length === 0) return;
    this.lastSeq = Math.max(this.lastSeq, events[events.length - 1].seq);
    this.deliver(events);
  }
}
