import { randomUUID } from 'node:crypto';
import type { ContractUpstream, UpstreamAnswer } from '../gateway/upstream.ports';
import type { ResourceWatch, WatchedResource } from './live.ports';
import type { SourceLog } from './live-sources';

/**
 * What an answer says, to compare with the last: its status and body without `meta.request_id`
 * (each answer echoes its own). Resources without an ETag are compared this way only.
 */
function stateOf(answer: UpstreamAnswer): string {
  try {
    const envelope = JSON.parse(answer.body.toString('utf8')) as { meta?: Record<string, unknown> };
    if (envelope.meta) delete envelope.meta.request_id;
    return `${answer.status} ${JSON.stringify(envelope)}`;
  } catch {
    return `${answer.status} ${answer.body.toString('base64')}`;
  }
}

/** A watcher: it keeps only the newest answer it has not taken (a state, so older ones are moot). */
class LatestAnswer implements AsyncIterableIterator<UpstreamAnswer> {
  private pending: UpstreamAnswer | null = null;
  private waiting: ((result: IteratorResult<UpstreamAnswer>) => void) | null = null;
  private done = false;

  constructor(private readonly onDone: (watcher: LatestAnswer) => void) {}

  offer(answer: UpstreamAnswer): void {
    if (this.done) return;
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = null;
      waiting({ value: answer, done: false });
    } else {
      this.pending = answer;
    }
  }

  next(): Promise<IteratorResult<UpstreamAnswer>> {
    if (this.pending) {
      const value = this.pending;
      this.pending = null;
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<UpstreamAnswer>> {
    if (!this.done) {
      this.done = true;
      this.pending = null;
      this.onDone(this);
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.({ value: undefined, done: true });
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<UpstreamAnswer> {
    return this;
  }
}

/**
 * One resource's poller: a conditional GET (`If-None-Match` with the last ETag) every interval,
 * for all its watchers at once; an answer whose body changed goes to each. It stops when the last
 * watcher leaves.
 */
class ResourcePoller {
  readonly watchers = new Set<LatestAnswer>();
  private last: UpstreamAnswer | null = null;
  private lastState = '';
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly upstream: ContractUpstream,
    private readonly resource: WatchedResource,
    private readonly intervalMs: number,
    private readonly log: SourceLog,
  ) {}

  add(watcher: LatestAnswer): void {
    this.watchers.add(watcher);
    // A newcomer starts from the state already known; the others are not told it again.
    if (this.last) watcher.offer(this.last);
    if (this.timer === null) {
      this.timer = setInterval(() => void this.poll(), this.intervalMs);
      this.timer.unref();
      void this.poll();
    }
  }

  remove(watcher: LatestAnswer): boolean {
    this.watchers.delete(watcher);
    if (this.watchers.size > 0) return false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return true;
  }

  private async poll(): Promise<void> {
    // One GET at a time: a slow upstream is not asked again before it answered.
    if (this.polling) return;
    this.polling = true;
    try {
      const answer = await this.upstream.call({
        companyId: this.resource.companyId,
        clientId: this.resource.clientId,
        method: 'GET',
        path: this.resource.path,
        query: [],
        requestId: randomUUID(),
        ...(this.last?.headers.etag ? { ifNoneMatch: this.last.headers.etag } : {}),
      });
      if (answer.status === 304) return;
      const state = stateOf(answer);
      if (this.last && this.lastState === state) return;
      this.last = answer;
      this.lastState = state;
      for (const watcher of this.watchers) watcher.offer(answer);
    } catch (error) {
      this.log.warn(
        { err: error, path: this.resource.path },
        'upstream poll failed; trying again at the next interval',
      );
    } finally {
      this.polling = false;
    }
  }
}

/** Gateway mode's watched resources: one poller per company and path, however many subscribe. */
export class UpstreamPollers implements ResourceWatch {
  private readonly pollers = new Map<string, ResourcePoller>();

  constructor(
    private readonly upstream: ContractUpstream,
    private readonly intervalMs: number,
    private readonly log: SourceLog,
  ) {}

  /** Pollers running now (one per distinct resource watched). */
  get pollerCount(): number {
    return this.pollers.size;
  }

  watch(resource: WatchedResource): AsyncIterableIterator<UpstreamAnswer> {
    const key = `${resource.companyId} ${resource.path}`;
    let poller = this.pollers.get(key);
    if (!poller) {
      poller = new ResourcePoller(this.upstream, resource, this.intervalMs, this.log);
      this.pollers.set(key, poller);
    }
    const owner = poller;
    const watcher = new LatestAnswer((done) => {
      if (owner.remove(done) && this.pollers.get(key) === owner) this.pollers.delete(key);
    });
    owner.add(watcher);
    return watcher;
  }

  close(): void {
    for (const poller of this.pollers.values()) {
      for (const watcher of [...poller.watchers]) void watcher.return();
    }
  }
}
