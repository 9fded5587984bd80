import {
  createSourceEventStream,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
} from 'graphql';
import type { Caller } from '../kernel/caller';
import type { LiveEvent, LiveItem } from './live.ports';
import type { ContextServices, GraphqlContext } from '../graphql/context';
import { formattedResult, liveContext, type LiveLog } from './live-operations';
import { LiveSubscriber } from './live-subscriber';
import { WorkSlices } from './work-slices';

/** One result as the transports write it: its JSON, made once for every member of a group. */
export interface SharedResult {
  /** The formatted result (`{"data":...}`), serialized as UTF-8. */
  readonly json: Buffer;
  /** The `cursor` its root field selected (SSE's `id:` line); null when none. */
  readonly cursor: string | null;
}

/** Where one member's results go: a graphql-ws operation or an SSE stream. */
export interface LiveSink {
  /** Writes a result; a sink that cannot keep up drops its member itself (slow consumer). */
  write(result: SharedResult): void;
  /** The service ended the subscription, after its last result. */
  end(): void;
  /**
   * Holds the writes until `uncork`, then sends them as one: a member behind by several results
   * gets them in one system call (on loopback, most of a write's cost).
   */
  cork(): void;
  uncork(): void;
}

/** A subscription about to run: what `prepareSubscription` made, with the member's context. */
export type LiveOperation = ExecutionArgs & { contextValue: GraphqlContext };

/**
 * What a subscriber's results may depend on of its caller. The resolvers and their loaders read the
 * caller's company (every scope check) and its client application (trusted documents, what a
 * client may see): no result is shared between two client applications.
 */
export function scopeOf(caller: Caller): string {
  return `${caller.companyId}/${caller.clientId}`;
}

/**
 * How long the fan-out writes before it lets other work (requests) run: a few hundred members on an
 * idle core.
 */
const WRITING_MS_PER_TURN = 1;

function isAsyncIterable(value: AsyncIterable<unknown> | ExecutionResult): value is AsyncIterable<unknown> {
  return Symbol.asyncIterator in value;
}

/** The cursor of an event's result: the `cursor` its one root field selected, if any. */
function cursorOf(data: FormattedExecutionResult['data']): string | null {
  if (!data || typeof data !== 'object') return null;
  const [root] = Object.values(data);
  if (!root || typeof root !== 'object') return null;
  const cursor = (root as { cursor?: unknown }).cursor;
  return typeof cursor === 'string' ? cursor : null;
}

/** A live event's execution for a group: its result once done; `failed` when it threw. */
interface Execution {
  result: SharedResult | null;
  failed: boolean;
}

/**
 * The subscriptions of one document, variables and caller scope on this instance: each live event
 * is executed and serialized once for all of them, as soon as it is offered, then written to each.
 */
class LiveGroup {
  readonly members = new Set<GroupMember>();
  /**
   * The executions of the events offered, by event: kept while a member's queue holds the event
   * (the hub hands every member the same object), let go with it.
   */
  readonly executions = new WeakMap<LiveEvent, Execution>();
  scheduled = false;

  constructor(
    readonly key: string,
    readonly run: (item: LiveItem) => Promise<SharedResult>,
    /** Where its executions' unexpected failures are told: its first member's connection's log. */
    readonly log: LiveLog,
  ) {}
}

/** A subscription's end, as graphql-ws waits for it: an iterator that yields nothing and ends with it. */
export abstract class LiveMembership implements AsyncIterableIterator<never> {
  private ended = false;
  private waiting: ((result: IteratorResult<never>) => void) | null = null;

  /** Ends the member on the client's side (it completed, or its connection closed). */
  abstract leave(): void;

  next(): Promise<IteratorResult<never>> {
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<never>> {
    this.leave();
    this.settle();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<never>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<never> {
    return this;
  }

  /** The subscription is over: whoever waits on `next` hears it. */
  protected settle(): void {
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
  }
}

/**
 * A member of a group: what its own queue holds is written in order, the group's results as they
 * are and the rest (the first state, a replay, the end) executed for it alone.
 */
class GroupMember extends LiveMembership {
  private busy = false;
  private done = false;

  constructor(
    private readonly group: LiveGroup,
    private readonly source: LiveSubscriber,
    private readonly sink: LiveSink,
    private readonly runOwn: (item: LiveItem) => Promise<SharedResult>,
    private readonly log: LiveLog,
    private readonly onLeave: (member: GroupMember) => void,
  ) {
    super();
  }

  /** Writes what waits, up to an event whose execution has yet to end. */
  pump(): void {
    let corked = false;
    while (!this.busy && !this.done) {
      const item = this.source.peek();
      if (!item) break;
      const execution = item.kind === 'event' ? this.group.executions.get(item.event) : undefined;
      if (execution?.result) {
        this.source.take();
        if (!corked) this.sink.cork();
        corked = true;
        this.sink.write(execution.result);
        continue;
      }
      // Still running: its end schedules the group, which writes it.
      if (execution && !execution.failed) break;
      this.source.take();
      this.busy = true;
      void this.own(item);
    }
    if (corked) this.sink.uncork();
  }

  leave(): void {
    if (this.done) return;
    this.done = true;
    this.onLeave(this);
    void this.source.return();
  }

  private async own(item: LiveItem): Promise<void> {
    try {
      const result = await this.runOwn(item);
      if (!this.done) this.sink.write(result);
    } catch (error) {
      this.log.error({ err: error }, 'graphql subscription failed');
    } finally {
      this.busy = false;
    }
    if (item.kind === 'ended') {
      if (this.done) return;
      this.leave();
      this.sink.end();
      this.settle();
      return;
    }
    this.pump();
  }
}

/** A subscription whose source is not the live hub (gateway mode's pollers): executed for it alone. */
class OwnMember extends LiveMembership {
  private done = false;

  constructor(
    private readonly source: AsyncIterator<unknown>,
    sink: LiveSink,
    run: (item: unknown) => Promise<SharedResult>,
    log: LiveLog,
  ) {
    super();
    void (async () => {
      try {
        for (let next = await source.next(); !next.done && !this.done; next = await source.next()) {
          const result = await run(next.value);
          if (!this.done) sink.write(result);
        }
      } catch (error) {
        log.error({ err: error }, 'graphql subscription failed');
      }
      if (this.done) return;
      this.done = true;
      sink.end();
      this.settle();
    })();
  }

  leave(): void {
    if (this.done) return;
    this.done = true;
    void this.source.return?.();
  }
}

/**
 * Live subscriptions grouped by what they would compute: the same document, variables and caller
 * scope share one execution per event, serialized once, and the same bytes go to every member.
 * Each event is executed as soon as a group's member is offered it; once done, the group waits in
 * a queue of groups, written out a group at a time from a turn of the event loop of its own (never
 * inside the turn of the request whose commit made the event, which answers first), letting other
 * work run after every millisecond of writing, so a burst of events never holds the requests that
 * made them.
 */
export class LiveGroups {
  private readonly groups = new Map<string, LiveGroup>();
  private readonly queue: LiveGroup[] = [];
  private running = false;
  /** The fan-out's slices of time, over groups: many small ones add up. */
  private readonly slices = new WorkSlices(WRITING_MS_PER_TURN);
  private executionCount = 0;

  constructor(private readonly services: ContextServices) {}

  /** Groups open on this instance. */
  get groupCount(): number {
    return this.groups.size;
  }

  /** Executions of subscriptions so far, shared or not (each serialized once). */
  get executions(): number {
    return this.executionCount;
  }

  /**
   * Subscribes: the subscription's resolver checks the caller's rights and opens its events (a
   * refusal answers its errors); then it joins the group of its document, variables and scope.
   */
  async open(operation: LiveOperation, sink: LiveSink): Promise<LiveMembership | ExecutionResult> {
    const source = await createSourceEventStream(operation);
    if (!isAsyncIterable(source)) return source;
    const { caller, requestId, log, lastEventId } = operation.contextValue;
    const template = { ...operation, contextValue: undefined };
    // Each execution has a context of its own (fresh loaders), as each event had before.
    const runAs =
      (scope: Caller, id: string) =>
      (item: unknown): Promise<SharedResult> =>
        this.execute({
          ...template,
          contextValue: liveContext(this.services, scope, id, log, lastEventId),
          rootValue: item,
        });
    const runOwn = runAs(caller, requestId);
    if (!(source instanceof LiveSubscriber)) {
      return new OwnMember(source[Symbol.asyncIterator](), sink, runOwn, log);
    }

    const key = JSON.stringify([
      scopeOf(caller),
      operation.document.loc?.source.body ?? null,
      operation.operationName ?? null,
      operation.variableValues ?? null,
    ]);
    let group = this.groups.get(key);
    if (!group) {
      group = new LiveGroup(key, runAs(caller, `live-group/${this.groups.size}`), log);
      this.groups.set(key, group);
    }
    const joined = group;
    const member = new GroupMember(joined, source, sink, runOwn, log, (gone) => this.remove(joined, gone));
    joined.members.add(member);
    source.listen((event) => {
      if (event === null) {
        member.pump();
        return;
      }
      // The other members are offered the same event: one execution.
      if (!joined.executions.has(event)) this.start(joined, event);
    });
    member.pump();
    return member;
  }

  private async execute(args: ExecutionArgs & { contextValue: GraphqlContext }): Promise<SharedResult> {
    this.executionCount += 1;
    const formatted = formattedResult(await execute(args), args.contextValue.log);
    return { json: Buffer.from(JSON.stringify(formatted)), cursor: cursorOf(formatted.data) };
  }

  private remove(group: LiveGroup, member: GroupMember): void {
    group.members.delete(member);
    if (group.members.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
  }

  private schedule(group: LiveGroup): void {
    if (group.scheduled) return;
    group.scheduled = true;
    this.queue.push(group);
    if (this.running) return;
    this.running = true;
    // From a turn of its own: the request (or read) whose event this is ends its turn first.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    this.slices.begin();
    try {
      for (let group = this.queue.shift(); group; group = this.queue.shift()) {
        group.scheduled = false;
        await this.flush(group);
      }
    } finally {
      this.running = false;
    }
  }

  /** Executes an event for the group at once; once done, its members are written to. */
  private start(group: LiveGroup, event: LiveEvent): void {
    const execution: Execution = { result: null, failed: false };
    group.executions.set(event, execution);
    group.run({ kind: 'event', event }).then(
      (result) => {
        execution.result = result;
        this.schedule(group);
      },
      (error: unknown) => {
        // Each member then executes it on its own, and says what fails.
        group.log.error({ err: error }, 'graphql subscription failed');
        execution.failed = true;
        this.schedule(group);
      },
    );
  }

  /** Writes what is done to the group's members, a slice at a time. */
  private async flush(group: LiveGroup): Promise<void> {
    for (const member of [...group.members]) {
      member.pump();
      if (this.slices.spent()) await this.slices.next();
    }
  }
}
