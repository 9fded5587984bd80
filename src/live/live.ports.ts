import type { liveEvents } from './live.tables';
import type { RecordOfTable } from '../kernel/columns';
import type { UpstreamAnswer } from '../gateway/upstream.ports';

/**
 * An event a change reported, as the live journal keeps it, numbered in commit order (on PostgreSQL
 * by the journal's trigger as the transaction commits).
 */
export type LiveEvent = Readonly<RecordOfTable<typeof liveEvents>>;

/**
 * Which events a subscriber wants: one facility's (or, with null, any facility's: a webhook
 * endpoint's deliveries), of some types, about one event or endpoint.
 */
export interface LiveFilter {
  readonly facilityId: string | null;
  readonly types?: readonly string[] | null;
  readonly eventId?: string | null;
}

/**
 * What a subscription yields: first `start` when asked for (to answer the current state), then
 * events, and last, when the service ends it, why.
 */
export type LiveItem =
  | { readonly kind: 'start' }
  | { readonly kind: 'event'; readonly event: LiveEvent }
  | { readonly kind: 'ended'; readonly reason: 'slow_consumer' | 'closing'; readonly message: string };

/** The journal of live events (`live_events`), written with each change, read after commit. */
export interface LiveJournal {
  /** Events by number, in number order (those deleted since are left out). */
  bySeqs(seqs: readonly number[]): Promise<LiveEvent[]>;
  /** Events after a number (those the filter wants, when given), oldest first, at most `limit`. */
  after(seq: number, limit: number, filter?: LiveFilter): Promise<LiveEvent[]>;
  /** The smallest and largest numbers kept; null when the journal is empty. */
  bounds(): Promise<{ first: number; last: number } | null>;
  /** Deletes events that occurred before the instant, keeping the newest; how many went. */
  pruneBefore(occurredAt: string): Promise<number>;
}

/**
 * PostgreSQL: the notifications each transaction that writes live events sends once it commits
 * (their numbers, comma-separated), heard on a connection of their own.
 */
export interface LiveNotifications {
  /** Connects and listens: `heard` gets each notification's payload, `lost` the connection's failure. */
  listen(heard: (payload: string) => void, lost: (error: unknown) => void): Promise<LiveListening>;
}

/** A connection listening for live notifications. */
export interface LiveListening {
  end(): Promise<void>;
}

/** Subscribing to live events: what the GraphQL Subscription resolvers use, in either mode. */
export interface LiveFeed {
  /**
   * The events the filter wants from now on, first those after `since` still kept (a GONE error
   * when `since` is older than what is kept or more than the replay limit ago). The caller ends it
   * with `return()`.
   */
  subscribe(
    filter: LiveFilter,
    since: number | null,
    options?: { start?: boolean },
  ): Promise<AsyncIterableIterator<LiveItem>>;
}

/** Gateway mode: a resource of the upstream's contract one company watches (a GET's path). */
export interface WatchedResource {
  readonly companyId: string;
  readonly clientId: string;
  /** `/v1/...`, without a query. */
  readonly path: string;
}

/**
 * Gateway mode: the upstream's answers to a resource as they change, polled once for every
 * subscriber of it. The first is the answer as it is now; then only answers whose body changed.
 */
export interface ResourceWatch {
  watch(resource: WatchedResource): AsyncIterableIterator<UpstreamAnswer>;
}
