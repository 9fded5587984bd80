import type { LiveEvent, LiveJournal, LiveListening, LiveNotifications } from './live.ports';
import { withDeadline } from '../kernel/deadline';

/** Events read from the journal at once, at most. */
const READ_BATCH = 500;
/** How long a lost LISTEN connection waits before connecting again: at first, and at most. */
const RECONNECT_MIN_MS = 250;
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
  /** A read waits for its turn: what commits meanwhile, it reads too. */
  private waitingTurn = false;
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
    if (this.timer === null || this.waitingTurn) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    // In a turn of its own: the requests whose commits woke it answer first (offering an event to
    // thousands of subscribers takes a while), and the commits of one turn are read together.
    this.waitingTurn = true;
    this.reading = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        this.waitingTurn = false;
        return this.timer === null ? undefined : this.readAll();
      })
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
 * How long a missing number holds the catch-up back before it is taken for one that will never
 * come. Numbers are taken as a transaction commits, so one is missing for a moment while that
 * commit ends, and for good when the commit failed after the numbering or PostgreSQL skipped
 * numbers after a crash. Ten minutes is far longer than any commit; waiting longer would only make
 * a catch-up read again more rows it already delivered.
 */
const GAP_DEADLINE_MS = 10 * 60_000;
/**
 * Delivered numbers remembered, at most: about 3 MB, and a catch-up reads again at most as many rows
 * it already delivered. Past it the oldest are forgotten and the missing numbers below them given
 * up: at more than 80 events a second this, not the deadline, bounds how long a gap is waited for.
 */
const REMEMBERED_MAX = 50_000;

/**
 * How long a read of the journal may take before the source moves on (and catches up later, from
 * the mark): a read is one or two index lookups, so one still waiting after this is stuck behind
 * something (a pool every connection of which is busy, a lock), and the events after it must not
 * wait on it.
 */
const READ_DEADLINE_MS = 10_000;

/**
 * How long a missing number is waited for, how many delivered numbers are kept, and how long a
 * read of the journal may take, at most.
 */
export interface PgSourceLimits {
  readonly gapDeadlineMs: number;
  readonly remembered: number;
  readonly readDeadlineMs: number;
}

/**
 * The numbers a PostgreSQL source has delivered. `mark` is the low-water mark: every number up to
 * it was delivered, or given up as a gap; above it, `at` tells which were delivered. Numbers are
 * kept for the gap deadline whether above the mark or not: a catch-up after a reconnect may deliver
 * an event whose notification the new connection hears after, and must not deliver it twice.
 */
class DeliveredSeqs {
  mark = 0;
  /** When each number was delivered (a Map keeps insertion order: oldest first). */
  private readonly at = new Map<number, number>();

  constructor(private readonly limits: Pick<PgSourceLimits, 'gapDeadlineMs' | 'remembered'>) {}

  has(seq: number): boolean {
    return this.at.has(seq);
  }

  /** Raises the mark to `seq`, giving up the numbers below it that never came. */
  raise(seq: number): void {
    if (seq <= this.mark) return;
    this.mark = seq;
    this.advance();
  }

  add(seq: number, now: number): void {
    this.at.set(seq, now);
    this.advance();
  }

  /**
   * Forgets the numbers delivered before the deadline, and the oldest past the cap. A number
   * forgotten above the mark raises it: a gap below it has been open at least that long.
   */
  forget(now: number): void {
    for (const [seq, at] of this.at) {
      if (this.at.size <= this.limits.remembered && now - at < this.limits.gapDeadlineMs) return;
      this.at.delete(seq);
      this.raise(seq);
    }
  }

  private advance(): void {
    while (this.at.has(this.mark + 1)) this.mark += 1;
  }
}

/**
 * PostgreSQL (any number of instances): LISTENs on the schema's channel, where each transaction
 * that writes live events notifies their numbers; PostgreSQL delivers a notification only once its
 * transaction commits, so events arrive after commit only, on every instance.
 *
 * The journal numbers events as their transactions commit (migration
 * `20261128100000_live_events_commit_order`), and notifications come in commit order; the source
 * reads them one after another, so events reach subscribers in their numbers' order.
 *
 * It keeps a low-water mark (every number up to it delivered, or given up) and the numbers delivered
 * above it. A lost connection is made again, and the journal read from the mark: what committed
 * meanwhile is delivered, and nothing already delivered is delivered twice. A number missing past
 * the gap deadline (a commit that failed after the numbering burns one) is given up, so the mark
 * moves on and memory stays bounded; its event, should it commit after all, is still delivered when
 * heard, only no catch-up looks for it.
 */
export class PgNotifySource implements LiveSource {
  private listening: LiveListening | null = null;
  private readonly delivered: DeliveredSeqs;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  /** A read of heard numbers failed: what it missed is read from the mark, again until it works. */
  private behind = false;
  private catchUpMs = RECONNECT_MIN_MS;
  private catchUpTimer: NodeJS.Timeout | null = null;
  private deliver: (events: LiveEvent[]) => void = () => undefined;
  /** Numbers heard and not read yet (the first ones being read, while a read runs). */
  private heardSeqs: number[] = [];
  /** The reads and catch-ups so far, one after another (see `inTurn`). */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly notifications: LiveNotifications,
    private readonly journal: LiveJournal,
    private readonly log: SourceLog,
    private readonly limits: PgSourceLimits = {
      gapDeadlineMs: GAP_DEADLINE_MS,
      remembered: REMEMBERED_MAX,
      readDeadlineMs: READ_DEADLINE_MS,
    },
  ) {
    this.delivered = new DeliveredSeqs(limits);
  }

  async start(deliver: (events: LiveEvent[]) => void): Promise<void> {
    this.deliver = deliver;
    // Listening first: what commits from now on is heard, what committed before is in the journal.
    await this.connect();
    try {
      await this.passOver();
    } catch (error) {
      await this.dropListening();
      throw error;
    }
  }

  wake(): void {
    // Notifications say when: a commit of this process is heard like any other instance's.
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = null;
    await this.dropListening();
  }

  /**
   * Counts what the journal holds at the start as delivered (it committed before any subscriber).
   * Numbers are taken as transactions commit, one at a time, so every number up to the last one
   * visible has committed or never will: a transaction still open takes a higher one.
   */
  private async passOver(): Promise<void> {
    this.delivered.raise((await this.read(this.journal.bounds()))?.last ?? 0);
  }

  private async connect(): Promise<void> {
    let connected: LiveListening | null = null;
    connected = await this.notifications.listen(
      (payload) => this.heard(payload),
      (error) => {
        if (connected) this.lost(connected, error);
      },
    );
    if (this.closed) {
      await connected.end().catch(() => undefined);
      return;
    }
    this.listening = connected;
  }

  private async dropListening(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    await listening?.end().catch(() => undefined);
  }

  private lost(listening: LiveListening, error: unknown): void {
    if (this.closed || this.listening !== listening) return;
    this.log.warn({ err: error }, 'live events: LISTEN connection lost; connecting again');
    void this.dropListening();
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.reconnect();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private async reconnect(): Promise<void> {
    try {
      // In turn: what the new connection hears is read after the catch-up, not before.
      await this.inTurn(async () => {
        await this.connect();
        await this.catchUp();
      });
      this.retryMs = RECONNECT_MIN_MS;
    } catch (error) {
      this.log.warn({ err: error }, 'live events: LISTEN connection failed');
      this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
      // Connected but not caught up: connect again, which catches up again.
      await this.dropListening();
      this.reconnectLater();
    }
  }

  private heard(payload: string): void {
    const seqs = payload
      .split(',')
      .map(Number)
      .filter((seq) => Number.isSafeInteger(seq) && seq > 0);
    if (seqs.length === 0) return;
    const idle = this.heardSeqs.length === 0;
    for (const seq of seqs) this.heardSeqs.push(seq);
    if (idle) this.readHeard();
  }

  /**
   * Reads the numbers heard, in turn, a batch at a time: what is heard while a read waits its turn
   * (one notification per event) is read with it.
   */
  private readHeard(): void {
    this.inTurn(async () => {
      const seqs = this.heardSeqs.slice(0, READ_BATCH);
      try {
        if (this.behind) await this.catchUp();
        this.handOver(await this.read(this.journal.bySeqs(seqs)));
      } catch (error) {
        this.fellBehind();
        throw error;
      } finally {
        this.heardSeqs.splice(0, seqs.length);
        if (this.heardSeqs.length > 0) this.readHeard();
      }
    }).catch((error: unknown) => this.log.warn({ err: error }, 'live events could not be read'));
  }

  /**
   * A read failed (the database did not answer, say): the numbers it had are not lost, they are
   * above the mark. Catches up from there after a pause, doubling while it fails, or at the next
   * read of heard numbers, whichever comes first.
   */
  private fellBehind(): void {
    this.behind = true;
    if (this.closed || this.catchUpTimer) return;
    this.catchUpTimer = setTimeout(() => {
      this.catchUpTimer = null;
      this.inTurn(async () => {
        if (this.behind) await this.catchUp();
      }).catch((error: unknown) => {
        this.log.warn({ err: error }, 'live events could not be read');
        this.catchUpMs = Math.min(this.catchUpMs * 2, RECONNECT_MAX_MS);
        this.fellBehind();
      });
    }, this.catchUpMs);
    this.catchUpTimer.unref();
  }

  /** A read of the journal, given up past the read deadline (it fails like any read that fails). */
  private read<T>(reading: Promise<T>): Promise<T> {
    const ms = this.limits.readDeadlineMs;
    return withDeadline(reading, ms, `live events: the journal did not answer within ${ms} ms`);
  }

  /**
   * Runs `step` after the reads and catch-ups before it. PostgreSQL delivers notifications in
   * commit order and the journal numbers events in commit order, so events reach subscribers in
   * their numbers' order: a client that resumes after the last number it saw has seen every number
   * below it. A step that fails does not stop the ones after it.
   */
  private inTurn(step: () => Promise<void>): Promise<void> {
    const done = this.turn.then(step);
    this.turn = done.catch(() => undefined);
    return done;
  }

  /** Reads what committed while no connection listened: everything above the mark not yet delivered. */
  private async catchUp(): Promise<void> {
    this.delivered.forget(performance.now());
    let cursor = this.delivered.mark;
    while (!this.closed) {
      const events = await this.read(this.journal.after(cursor, READ_BATCH));
      this.handOver(events);
      if (events.length < READ_BATCH) break;
      cursor = events[events.length - 1].seq;
    }
    this.behind = false;
    this.catchUpMs = RECONNECT_MIN_MS;
  }

  private handOver(events: readonly LiveEvent[]): void {
    const fresh = events.filter((event) => !this.delivered.has(event.seq));
    if (fresh.length === 0) return;
    const now = performance.now();
    for (const event of fresh) this.delivered.add(event.seq, now);
    this.delivered.forget(now);
    this.deliver(fresh);
  }
}
