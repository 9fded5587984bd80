import { randomUUID } from 'node:crypto';
import { Client, type ClientConfig, type Pool } from 'pg';
import { withDeadline } from '../kernel/deadline';

/** The channel's name before the schema's (migration `20261129090000_revision_notices`). */
export const REVISIONS_CHANNEL_PREFIX = 'facility_ops_revisions_';

/** The `application_name` of each instance's listening connection. */
export const REVISIONS_APPLICATION_NAME = 'facility-ops revisions';

/** How long a lost listening connection waits before connecting again: at first, and at most. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** Tokens remembered; beyond this the memory starts over. */
const MAX_REMEMBERED_SCOPES = 10_000;

/** How long a statement at start or close (the tables, the registration's removal) is waited for. */
const STATEMENT_DEADLINE_MS = 5_000;

/** Pulses out and not heard back beyond which no more are sent: the connection is behind. */
const MAX_PULSES_OUT = 8;

/** Writers one acknowledgement names at most (a notification's payload holds 8,000 bytes). */
const ACKS_PER_NOTICE = 100;

/**
 * What a commit that wrote waits for before its caller goes on: every instance's memory of the
 * tokens (see RevisionNotices.barrier). Nothing waits when no instance of this store keeps tokens.
 */
export class AfterCommit {
  private readonly waiters = new Set<(written: ReadonlySet<string>) => Promise<void>>();

  /** Adds a waiter; the answer removes it. */
  use(waiter: (written: ReadonlySet<string>) => Promise<void>): () => void {
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  /**
   * What a commit that wrote the tables named waits for (`*`: tables it cannot name); undefined
   * when nothing waits, and the caller goes on at once.
   */
  wait(written: ReadonlySet<string>): Promise<void> | undefined {
    if (this.waiters.size === 0) return undefined;
    return Promise.all([...this.waiters].map((waiter) => waiter(written))).then(() => undefined);
  }
}

/** Any table: a commit whose tables are not known (a bulk write). */
export const ANY_TABLE: ReadonlySet<string> = new Set(['*']);

/** The tokens an instance heard of, as the revisions repository reads and fills them. */
export interface RevisionMemory {
  /** The scope's token when it is remembered and the instance's lease holds, else null. */
  known(scope: string): string | null;
  /** Moves on every change heard: a read begun under another generation must not be remembered. */
  readonly generation: number;
  /** Remembers a token read from the database, unless a change was heard since the read began. */
  remember(scope: string, token: string, generation: number): void;
}

export interface RevisionNoticeTimes {
  /** How long after a pulse was sent the tokens heard of may be served without asking. */
  leaseMs: number;
  /** How often an instance pulses (renews its registration and its lease). */
  pulseMs: number;
  /** How long a registration lasts without a pulse: other instances' writes wait for it that long. */
  registrationMs: number;
}

/** The pulse and registration for a lease: four pulses a lease, a registration of five leases. */
export function noticeTimes(leaseMs: number): RevisionNoticeTimes {
  return { leaseMs, pulseMs: Math.max(10, Math.floor(leaseMs / 4)), registrationMs: leaseMs * 5 };
}

export interface RevisionNoticeLog {
  warn(details: object, message: string): void;
}

const DONE = Promise.resolve();

/** A barrier's wait: the instances listed when it was sent, until each has heard it. */
interface Round {
  readonly seq: number;
  readonly startedAt: number;
  listed: boolean;
  readonly remaining: Set<string>;
  timer: NodeJS.Timeout;
  readonly settle: () => void;
}

/** Barriers asked for while one was being sent: they share the next. */
interface Batch {
  readonly done: Promise<void>;
  readonly settle: () => void;
}

/**
 * PostgreSQL: kept answers current without a round trip, for any number of instances.
 *
 * Every change of a revision counter notifies its scope on the schema's channel in the writing
 * transaction; PostgreSQL delivers the notifications of all transactions to each listener in commit
 * order. Each instance listens on a connection of its own and remembers the tokens it read, each
 * forgotten when its scope's notice comes. Two things make a remembered token safe to serve:
 *
 * - **A lease.** The instance pulses: one statement renews its row in `revision_listeners` and
 *   notifies `p:<id>:<n>`. When it hears its own pulse back it has heard every commit before it, and
 *   may serve remembered tokens until the pulse's *sending* time plus `leaseMs`. A connection that is
 *   lost, silent or behind stops the lease, and the instance reads tokens as before.
 * - **A barrier after each write.** A commit that wrote waits (`AfterCommit`) until every registered
 *   instance has heard it: the writer notifies `b:<id>:<n>` and lists the live registrations in one
 *   statement, begun after the commit; each instance answers `a:<its id>:<writer>=<n>` once it heard
 *   the barrier, which comes after the write. An instance that does not answer within the longest
 *   lease listed (each registration carries its own) has heard no pulse since the write, so its
 *   lease ended by then. One missing from the list
 *   registered after the write committed, so it hears the write before any pulse of its own; or its
 *   registration lapsed, which is longer than its lease.
 *
 * So a read that begins after a write's caller was answered, on any instance, is current. Writes pay
 * the barrier (a round trip and the other instances' answers) where every kept read paid a round
 * trip. A notification that cannot be read is logged and forgets every token.
 */
export class RevisionNotices implements RevisionMemory {
  /** The writer's name in its barriers. */
  readonly id = randomUUID();
  /** The listening connection's registration, new for each connection. */
  private listenerId = '';
  private client: Client | null = null;
  private channel = '';
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private pulseTimer: NodeJS.Timeout | null = null;
  private stopWaiting: (() => void) | null = null;
  /** Tables whose writes may move a revision counter; null until read (every write waits). */
  private revisionTables: Set<string> | null = null;

  private leaseUntil = 0;
  private generationNow = 0;
  private readonly tokens = new Map<string, string>();

  private pulseSeq = 0;
  /** Pulses sent and not heard back: their sending times. */
  private readonly pulsesOut = new Map<number, number>();

  private barrierSeq = 0;
  private barrierOut = false;
  private waiting: Batch | null = null;
  private readonly rounds = new Map<number, Round>();
  /** The last own barrier heard back, and each instance's last answer to ours. */
  private heardOwn = 0;
  private readonly answered = new Map<string, number>();

  /** Answers to send: each writer's last barrier heard. */
  private readonly answers = new Map<string, number>();
  private answering = false;
  /** The last statement sent on the listening connection (see inTurn). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly afterCommit: AfterCommit,
    private readonly times: RevisionNoticeTimes,
    private readonly log: RevisionNoticeLog,
    /**
     * False for a process that writes and serves nothing (a command line's `import`): it sends
     * barriers and hears their answers, but neither registers nor pulses, so no write waits for it.
     */
    private readonly serves = true,
  ) {}

  get generation(): number {
    return this.generationNow;
  }

  /** Whether remembered tokens are served now (the lease holds). */
  get current(): boolean {
    return performance.now() < this.leaseUntil;
  }

  /** The listening connection's registration in `revision_listeners`; empty before the first. */
  get registration(): string {
    return this.listenerId;
  }

  /** The listening connection's backend process, while there is one (tests cut it). */
  get backendPid(): number | null {
    return (this.client as (Client & { processID?: number }) | null)?.processID ?? null;
  }

  known(scope: string): string | null {
    if (performance.now() >= this.leaseUntil) return null;
    return this.tokens.get(scope) ?? null;
  }

  remember(scope: string, token: string, generation: number): void {
    if (generation !== this.generationNow) return;
    if (this.tokens.size >= MAX_REMEMBERED_SCOPES) this.tokens.clear();
    this.tokens.set(scope, token);
  }

  /**
   * Starts listening and makes this store's commits wait for the barrier. A first connection that
   * fails is logged and made again: meanwhile tokens are read as before.
   */
  async start(): Promise<void> {
    this.stopWaiting = this.afterCommit.use((written) => (this.moves(written) ? this.barrier() : DONE));
    try {
      this.revisionTables = await withDeadline(
        this.readRevisionTables(),
        STATEMENT_DEADLINE_MS,
        `not read within ${STATEMENT_DEADLINE_MS} ms`,
      );
    } catch (error) {
      this.log.warn(
        { err: error },
        'revision notices: the tables with revision counters were not read; every write waits',
      );
    }
    try {
      await this.connect();
    } catch (error) {
      this.log.warn({ err: error }, 'revision notices: LISTEN connection failed; tokens are read meanwhile');
      this.reconnectLater();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWaiting?.();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pulseTimer) clearInterval(this.pulseTimer);
    for (const round of [...this.rounds.values()]) round.settle();
    this.waiting?.settle();
    this.waiting = null;
    this.leaseUntil = 0;
    const client = this.client;
    this.client = null;
    if (client) {
      // Others' writes stop waiting for this instance at once, not when its registration lapses.
      await withDeadline(
        this.inTurn(client, 'delete from revision_listeners where id = $1', [this.listenerId]),
        STATEMENT_DEADLINE_MS,
        'not deleted in time',
      ).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Whether a commit that wrote these tables may have moved a revision counter: a table with a
   * trigger that moves one (a nonce or a delivery's row moves none), or any table when unknown.
   */
  private moves(written: ReadonlySet<string>): boolean {
    const tables = this.revisionTables;
    if (tables === null || written.has('*')) return true;
    for (const table of written) if (tables.has(table)) return true;
    return false;
  }

  /** The schema's tables whose triggers move revision counters, and the counters' own table. */
  private async readRevisionTables(): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ name: string }>(
      `select distinct c.relname as name
         from pg_trigger t
         join pg_class c on c.oid = t.tgrelid
         join pg_proc p on p.oid = t.tgfoid
        where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal
          and p.proname like 'data\\_revision%'`,
    );
    return new Set(['data_revisions', ...rows.map((row) => row.name)]);
  }

  /**
   * Resolves once every registered instance has heard the commits made before it was called, or
   * after `leaseMs`, when any that has not holds no lease. Never rejects: the write succeeded.
   */
  barrier(): Promise<void> {
    if (this.closed) return Promise.resolve();
    let batch = this.waiting;
    if (batch === null) {
      let settle!: () => void;
      const done = new Promise<void>((resolve) => {
        settle = resolve;
      });
      batch = { done, settle };
      this.waiting = batch;
    }
    if (!this.barrierOut) void this.sendBarrier();
    return batch.done;
  }

  private async sendBarrier(): Promise<void> {
    const batch = this.waiting;
    if (batch === null) return;
    this.waiting = null;
    this.barrierOut = true;
    const seq = ++this.barrierSeq;
    const round: Round = {
      seq,
      startedAt: performance.now(),
      listed: false,
      remaining: new Set(),
      // Counted from now, after the commits it covers: a lease that missed them ends by then.
      timer: setTimeout(() => round.settle(), this.times.leaseMs),
      settle: () => {
        clearTimeout(round.timer);
        this.rounds.delete(seq);
        batch.settle();
      },
    };
    this.rounds.set(seq, round);
    try {
      // A statement that waits for a pooled connection or the database no longer than the round:
      // the barriers asked for meanwhile are sent after it, each bounded by its own round.
      const { rows } = await withDeadline(
        this.pool.query<{ ids: string[]; lease_ms: number | null }>(
          `select array(select id from revision_listeners where alive_until > clock_timestamp()) as ids,
             (select max(lease_ms) from revision_listeners where alive_until > clock_timestamp()) as lease_ms,
             pg_notify(left($1 || current_schema(), 63), $2)`,
          [REVISIONS_CHANNEL_PREFIX, `b:${this.id}:${seq}`],
        ),
        this.times.leaseMs,
        `the barrier was not sent within ${this.times.leaseMs} ms`,
      );
      for (const id of rows[0]?.ids ?? []) {
        if (id !== this.listenerId && (this.answered.get(id) ?? 0) < seq) round.remaining.add(id);
      }
      // An instance configured with a longer lease than this one's: the wait is as long as its lease.
      const longest = rows[0]?.lease_ms ?? 0;
      if (longest > this.times.leaseMs && this.rounds.has(seq)) {
        clearTimeout(round.timer);
        round.timer = setTimeout(
          () => round.settle(),
          Math.max(0, round.startedAt + longest - performance.now()),
        );
      }
      round.listed = true;
      this.check(round);
    } catch (error) {
      // Not sent: the deadline settles it.
      this.log.warn(
        { err: error },
        'revision notices: a barrier was not sent; the write waits for the leases to end',
      );
    } finally {
      this.barrierOut = false;
      if (this.waiting !== null) void this.sendBarrier();
    }
  }

  private check(round: Round): void {
    if (!round.listed || round.remaining.size > 0) return;
    // This instance's own memory: heard back, or not listening (then it serves no token).
    if (this.client !== null && this.heardOwn < round.seq) return;
    round.settle();
  }

  private async connect(): Promise<void> {
    const client = new Client({
      ...(this.pool.options as ClientConfig),
      application_name: REVISIONS_APPLICATION_NAME,
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    client.on('notification', (message) => {
      if (this.client === client) this.heard(message.payload ?? '');
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    let channel: string;
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(
        'select left($1 || current_schema(), 63) as channel',
        [REVISIONS_CHANNEL_PREFIX],
      );
      channel = rows[0]!.channel;
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      // Registrations of instances long gone.
      await client.query(
        `delete from revision_listeners where alive_until < clock_timestamp() - $1 * interval '1 millisecond'`,
        [this.times.registrationMs],
      );
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.channel = channel;
    this.listenerId = randomUUID();
    // A statement still out on a lost connection must not hold this one's back.
    this.turn = Promise.resolve();
    this.retryMs = RECONNECT_MIN_MS;
    // What was remembered before this connection listened may have missed a notice.
    this.forget();
    if (!this.serves) return;
    this.pulse();
    this.pulseTimer = setInterval(() => this.pulse(), this.times.pulseMs);
    this.pulseTimer.unref();
  }

  private lost(client: Client, error: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.leaseUntil = 0;
    this.forget();
    this.pulsesOut.clear();
    if (this.pulseTimer) clearInterval(this.pulseTimer);
    this.pulseTimer = null;
    this.log.warn(
      { err: error },
      'revision notices: LISTEN connection lost; tokens are read until it is back',
    );
    void client.end().catch(() => undefined);
    // Off the list, so that others' writes stop waiting for it. The next connection registers anew.
    void this.pool
      .query('delete from revision_listeners where id = $1', [this.listenerId])
      .catch(() => undefined);
    // Barriers waiting to hear themselves back: this instance serves no token now.
    for (const round of [...this.rounds.values()]) this.check(round);
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect().catch((error: unknown) => {
        this.log.warn({ err: error }, 'revision notices: LISTEN connection failed');
        this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
        this.reconnectLater();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private forget(): void {
    this.generationNow += 1;
    this.tokens.clear();
  }

  /** Renews this instance's registration and, once heard back, its lease. */
  private pulse(): void {
    const client = this.client;
    if (client === null || this.pulsesOut.size >= MAX_PULSES_OUT) return;
    const seq = ++this.pulseSeq;
    this.pulsesOut.set(seq, performance.now());
    this.inTurn(
      client,
      `with registered as (
           insert into revision_listeners (id, alive_until, lease_ms)
           values ($1, clock_timestamp() + $2 * interval '1 millisecond', $5)
           on conflict (id) do update set alive_until = excluded.alive_until
           returning id)
         select pg_notify($3, $4) from registered`,
      [
        this.listenerId,
        this.times.registrationMs,
        this.channel,
        `p:${this.listenerId}:${seq}`,
        this.times.leaseMs,
      ],
    ).catch((error: unknown) => {
      this.pulsesOut.delete(seq);
      if (this.client === client) this.log.warn({ err: error }, 'revision notices: a pulse failed');
    });
  }

  private heard(payload: string): void {
    const kind = payload.slice(0, 2);
    if (kind === 'r:') {
      const scope = payload.slice(2);
      this.generationNow += 1;
      if (scope === '*') this.tokens.clear();
      else this.tokens.delete(scope);
      return;
    }
    const parts = payload.split(':');
    if (parts.length === 3 && kind === 'p:' && parts[1] === this.listenerId) {
      this.heardPulse(Number(parts[2]));
      return;
    }
    const seq = Number(parts[2]);
    if (parts.length === 3 && kind === 'b:' && Number.isSafeInteger(seq) && seq > 0) {
      if (parts[1] === this.id) this.heardBarrier(seq);
      else if (this.serves) this.answer(parts[1]!, seq);
      return;
    }
    if (parts.length === 3 && kind === 'a:') {
      const answers = parts[2]!.split(',').map((entry) => entry.split('='));
      if (answers.every((entry) => entry.length === 2 && Number.isSafeInteger(Number(entry[1])))) {
        for (const [writer, upTo] of answers)
          if (writer === this.id) this.heardAnswer(parts[1]!, Number(upTo));
        return;
      }
    }
    // Another instance's pulse is no business of this one; anything else cannot be read.
    if (parts.length === 3 && kind === 'p:') return;
    this.log.warn(
      { payload: payload.slice(0, 200) },
      'revision notices: a notification could not be read; every remembered token is read again',
    );
    this.forget();
  }

  private heardPulse(seq: number): void {
    const sentAt = this.pulsesOut.get(seq);
    if (sentAt === undefined) return;
    for (const out of [...this.pulsesOut.keys()]) if (out <= seq) this.pulsesOut.delete(out);
    this.leaseUntil = Math.max(this.leaseUntil, sentAt + this.times.leaseMs);
  }

  private heardBarrier(seq: number): void {
    this.heardOwn = Math.max(this.heardOwn, seq);
    for (const round of [...this.rounds.values()]) if (round.seq <= seq) this.check(round);
  }

  private heardAnswer(instance: string, upTo: number): void {
    if (this.answered.size >= MAX_REMEMBERED_SCOPES) this.answered.clear();
    this.answered.set(instance, Math.max(this.answered.get(instance) ?? 0, upTo));
    for (const round of [...this.rounds.values()]) {
      if (round.seq <= upTo && round.remaining.delete(instance)) this.check(round);
    }
  }

  /** Answers a writer's barrier: everything before it was heard (notices come in commit order). */
  private answer(writer: string, seq: number): void {
    this.answers.set(writer, Math.max(this.answers.get(writer) ?? 0, seq));
    if (this.answering) return;
    this.answering = true;
    queueMicrotask(() => this.sendAnswers());
  }

  /**
   * Runs a statement on the listening connection after those sent before it: pulses and answers
   * are sent from timers and notifications, and the driver wants one statement at a time.
   */
  private inTurn(client: Client, text: string, values: unknown[]): Promise<unknown> {
    const turn = this.turn.then(() => client.query(text, values));
    this.turn = turn.catch(() => undefined);
    return turn;
  }

  private sendAnswers(): void {
    this.answering = false;
    const client = this.client;
    const entries = [...this.answers].map(([writer, seq]) => `${writer}=${seq}`);
    this.answers.clear();
    if (client === null) return;
    for (let start = 0; start < entries.length; start += ACKS_PER_NOTICE) {
      const payload = `a:${this.listenerId}:${entries.slice(start, start + ACKS_PER_NOTICE).join(',')}`;
      this.inTurn(client, 'select pg_notify($1, $2)', [this.channel, payload]).catch((error: unknown) => {
        if (this.client === client) this.log.warn({ err: error }, 'revision notices: an answer failed');
      });
    }
  }
}
