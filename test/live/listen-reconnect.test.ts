import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { PgLiveNotifications, SqlLiveJournal } from '../../src/areas/live/live-events.repository';
import type { LiveJournal, LiveListening, LiveNotifications } from '../../src/areas/live/live.types';
import { domainEventBus } from '../../src/modules';
import { systemClock } from '../../src/kernel/clock';
import { LiveHub } from '../../src/live/live-hub';
import { PgNotifySource, type PgSourceLimits } from '../../src/live/live-sources';
import type { Store } from '../../src/store/database';
import { POSTGRES_URL } from '../support/dialects';
import { createTestStore, itOnPostgres, type TestStore } from '../support/harness';
import { until } from './live-support';

/** Long enough for a deadline of `until` to fail first, with its message, on the code before. */
const TIMEOUT_MS = 60_000;

/**
 * The store's LISTEN connections, made when the test lets them: while it holds them, a lost
 * connection is not made again, so what commits meanwhile is heard by no connection.
 */
class HeldNotifications implements LiveNotifications {
  /** Connections waiting to be let through. */
  waiting = 0;
  private gate: Promise<void> | null = null;
  private open: () => void = () => undefined;

  constructor(private readonly notifications: LiveNotifications) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  async listen(heard: (payload: string) => void, lost: (error: unknown) => void): Promise<LiveListening> {
    const gate = this.gate;
    if (gate) {
      this.waiting += 1;
      await gate;
      this.waiting -= 1;
    }
    return this.notifications.listen(heard, lost);
  }
}

/**
 * The journal, its reads failing (as when the database does not answer) or never answering (as when
 * they wait behind something) while told to, counting the reads it did not answer.
 */
class FaultyJournal implements LiveJournal {
  fault: 'none' | 'failing' | 'hanging' = 'none';
  unanswered = 0;

  constructor(private readonly journal: LiveJournal) {}

  private answer<T>(read: () => Promise<T>): Promise<T> {
    if (this.fault === 'none') return read();
    this.unanswered += 1;
    if (this.fault === 'hanging') return new Promise<T>(() => undefined);
    return Promise.reject(new Error('the journal did not answer'));
  }

  bySeqs(seqs: readonly number[]) {
    return this.answer(() => this.journal.bySeqs(seqs));
  }

  after(seq: number, limit: number) {
    return this.answer(() => this.journal.after(seq, limit));
  }

  bounds() {
    return this.journal.bounds();
  }

  pruneBefore(occurredAt: string) {
    return this.journal.pruneBefore(occurredAt);
  }
}

/** The number the journal gave an event (once its transaction committed). */
async function seqOf(store: Store, eventId: string): Promise<number> {
  const row = await store.db
    .selectFrom('live_events')
    .select('seq')
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.seq);
}

/**
 * One event written by the writer the services use, in a transaction that commits when `commit()`
 * is called (as a card payment's waits on the gateway); `commit()` answers the event's number.
 */
function heldEvent(store: Store, facilityId: string) {
  const eventId = randomUUID();
  let commit: () => void = () => undefined;
  const mayCommit = new Promise<void>((resolve) => (commit = resolve));
  let written = false;
  const done = store.db.transaction().execute(async (trx) => {
    await domainEventBus().publish(trx, [
      {
        type: 'note.created',
        facilityId,
        eventId,
        occurredAt: new Date().toISOString(),
        body: JSON.stringify({ type: 'note.created', timestamp: new Date().toISOString(), data: {} }),
      },
    ]);
    written = true;
    await mayCommit;
  });
  return {
    /** Whether the event is written (not committed). */
    written: () => written,
    commit: async () => {
      commit();
      await done;
      return seqOf(store, eventId);
    },
  };
}

/** One event written and committed; answers its number. */
async function committedEvent(store: Store, facilityId: string): Promise<number> {
  return heldEvent(store, facilityId).commit();
}

/** A live hub over the PostgreSQL source, its LISTEN connections held on demand. */
async function liveOn(db: TestStore, limits?: PgSourceLimits, sourceJournal?: LiveJournal) {
  const journal = new SqlLiveJournal(db.store.db);
  const notifications = new HeldNotifications(new PgLiveNotifications(db.store.db, db.store.pgPool!));
  const log = { warn: () => undefined };
  const hub = new LiveHub(
    journal,
    new PgNotifySource(notifications, sourceJournal ?? journal, log, limits),
    { queueLimit: 100, replayWindowMinutes: 60, replayLimit: 100 },
    systemClock,
    log,
  );
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.store.db);
  const listen = `LISTEN "facility_ops_live:${rows[0].schema}"`;

  /**
   * Ends the LISTEN connection from another session (as a restart of PostgreSQL or a network
   * failure would), holding the next one until `reconnect()`.
   */
  async function dropListening(): Promise<void> {
    notifications.hold();
    const admin = new Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where query = $1 and pid <> pg_backend_pid()',
        [listen],
      );
      expect(ended.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await until('the source to connect again', () => notifications.waiting === 1);
  }

  return { hub, dropListening, reconnect: () => notifications.release() };
}

/**
 * Subscribes to a facility's events (those after `since`, first, when given); answers the numbers
 * received, in order, as they come.
 */
async function receive(hub: LiveHub, facilityId: string, since: number | null = null) {
  const subscription = await hub.subscribe({ facilityId }, since);
  const seqs: number[] = [];
  void (async () => {
    for await (const item of subscription) if (item.kind === 'event') seqs.push(item.event.seq);
  })();
  return { seqs, stop: () => subscription.return!() };
}

/**
 * A slow transaction writes its event and waits; a quick one writes and commits its own, which the
 * subscriber receives. Answers the slow one (to commit) and the quick one's number.
 */
async function slowBehindQuick(store: Store, facilityId: string, received: { seqs: number[] }) {
  const slow = heldEvent(store, facilityId);
  await until('the slow transaction to write its event', () => slow.written());
  const quick = await committedEvent(store, facilityId);
  await until('the quick event', () => received.seqs.includes(quick));
  return { slow, quick };
}

/**
 * Commits the slow transaction while no connection listens, then lets the source connect again and
 * commits one more event; answers both numbers once the subscriber has received them.
 */
async function commitWhileNoneListens(
  store: Store,
  facilityId: string,
  live: Awaited<ReturnType<typeof liveOn>>,
  slow: ReturnType<typeof heldEvent>,
  received: { seqs: number[] },
) {
  await live.dropListening();
  const slowSeq = await slow.commit();
  live.reconnect();
  await until('the slow event, after the reconnect', () => received.seqs.includes(slowSeq));
  const later = await committedEvent(store, facilityId);
  await until('an event after the reconnect', () => received.seqs.includes(later));
  return { slowSeq, later };
}

describe('Live events on PostgreSQL: commit order, and a lost LISTEN connection', () => {
  let db: TestStore | null = null;
  let hub: LiveHub | null = null;
  const facilityId = randomUUID();

  beforeEach(async () => {
    db = await createTestStore('postgres');
  });
  afterEach(async () => {
    await hub?.close();
    await db?.close();
    hub = null;
    db = null;
  });

  /** A live hub over the store (closed after the test), and a subscriber to the facility's events. */
  const listening = async (limits?: PgSourceLimits, journal?: LiveJournal) => {
    const live = await liveOn(db!, limits, journal);
    hub = live.hub;
    return { live, received: await receive(hub, facilityId) };
  };

  itOnPostgres(
    'delivers, once, an event written before one delivered and committed while no connection listened',
    async () => {
      const { live, received } = await listening();
      const { slow, quick } = await slowBehindQuick(db!.store, facilityId, received);

      const { slowSeq, later } = await commitWhileNoneListens(db!.store, facilityId, live, slow, received);

      expect(received.seqs).toEqual([quick, slowSeq, later]);
      await received.stop();
    },
    TIMEOUT_MS,
  );

  itOnPostgres(
    'delivers an event whose transaction was open when the source started, committed while no connection listened',
    async () => {
      const slow = heldEvent(db!.store, facilityId);
      await until('the slow transaction to write its event', () => slow.written());
      const before = await committedEvent(db!.store, facilityId);
      const { live, received } = await listening();

      const { slowSeq, later } = await commitWhileNoneListens(db!.store, facilityId, live, slow, received);

      // What committed before the subscription is not sent to it, after the reconnect either.
      expect(received.seqs).toEqual([slowSeq, later]);
      expect(received.seqs).not.toContain(before);
      await received.stop();
    },
    TIMEOUT_MS,
  );

  itOnPostgres(
    'numbers events in commit order, so a client resuming after the last number it saw misses none written before it',
    async () => {
      const { received: first } = await listening();
      const { slow, quick } = await slowBehindQuick(db!.store, facilityId, first);
      // The client goes away having seen `quick`; the slow transaction commits meanwhile.
      await first.stop();
      const slowSeq = await slow.commit();
      expect(slowSeq).toBeGreaterThan(quick);

      const resumed = await receive(hub!, facilityId, quick);
      await until('the slow event, replayed after the last number seen', () =>
        resumed.seqs.includes(slowSeq),
      );
      expect(resumed.seqs).toEqual([slowSeq]);
      await resumed.stop();
    },
    TIMEOUT_MS,
  );

  itOnPostgres(
    'gives up a number never committed once it remembers too many, and still sends nothing twice',
    async () => {
      const { live, received } = await listening({
        gapDeadlineMs: 10 * 60_000,
        remembered: 2,
        readDeadlineMs: 10_000,
      });

      // A number taken and never committed, as when a commit fails after the journal numbered it.
      const { rows: taken } = await sql<{
        seq: string;
      }>`select nextval('live_events_seq_seq') as seq`.execute(db!.store.db);
      const burned = Number(taken[0].seq);
      const delivered: number[] = [];
      for (let i = 0; i < 3; i += 1) delivered.push(await committedEvent(db!.store, facilityId));
      expect(delivered[0]).toBeGreaterThan(burned);
      await until('the three events', () => received.seqs.length === 3);

      await live.dropListening();
      const meanwhile = await committedEvent(db!.store, facilityId);
      live.reconnect();
      await until('the event committed meanwhile', () => received.seqs.includes(meanwhile));
      const later = await committedEvent(db!.store, facilityId);
      await until('an event after the reconnect', () => received.seqs.includes(later));

      // The first event, forgotten past the cap of two, is not read again from below the burned
      // number.
      expect(received.seqs).toEqual([...delivered, meanwhile, later]);
      await received.stop();
    },
    TIMEOUT_MS,
  );

  itOnPostgres(
    "delivers every event in its number's order: a transaction's in the order written, concurrent ones in commit order",
    async () => {
      const { received } = await listening();

      const names = ['first', 'second', 'third'].map((name) => `${name}-${randomUUID()}`);
      await db!.store.db.transaction().execute((trx) =>
        domainEventBus().publish(
          trx,
          names.map((eventId) => ({
            type: 'note.created',
            facilityId,
            eventId,
            occurredAt: new Date().toISOString(),
            body: '{}',
          })),
        ),
      );
      const written = await Promise.all(names.map((name) => seqOf(db!.store, name)));
      expect(written).toEqual([written[0], written[0] + 1, written[0] + 2]);
      const concurrent = await Promise.all(
        Array.from({ length: 20 }, () => committedEvent(db!.store, facilityId)),
      );
      const all = [...written, ...concurrent];
      await until('every event', () => all.every((seq) => received.seqs.includes(seq)));

      expect(received.seqs).toEqual([...all].sort((a, b) => a - b));
      await received.stop();
    },
    TIMEOUT_MS,
  );

  for (const fault of ['failing', 'hanging'] as const) {
    itOnPostgres(
      `delivers an event whose read was ${fault} once the journal answers again, without waiting for another event`,
      async () => {
        const journal = new FaultyJournal(new SqlLiveJournal(db!.store.db));
        const limits = { gapDeadlineMs: 10 * 60_000, remembered: 50_000, readDeadlineMs: 500 };
        const { received } = await listening(limits, journal);

        journal.fault = fault;
        const missed = await committedEvent(db!.store, facilityId);
        await until('a read of the event heard, not answered', () => journal.unanswered > 0);
        journal.fault = 'none';
        await until('the event, read again', () => received.seqs.includes(missed));
        const later = await committedEvent(db!.store, facilityId);
        await until('an event after', () => received.seqs.includes(later));

        expect(received.seqs).toEqual([missed, later]);
        await received.stop();
      },
      TIMEOUT_MS,
    );
  }
});
