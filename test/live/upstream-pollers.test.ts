import type {
  ContractUpstream,
  UpstreamAnswer,
  UpstreamCall,
  UpstreamHealth,
} from '../../src/gateway/upstream.ports';
import { UpstreamPollers } from '../../src/live/upstream-pollers';
import { until } from './live-support';

/**
 * The upstream deployment (another machine in production) behind the port gateway mode uses: a
 * resource with an ETag that answers 304 to a matching If-None-Match.
 */
class EtagUpstream implements ContractUpstream {
  readonly calls: UpstreamCall[] = [];
  version = 1;
  onCall: (call: 'sent' | 'shared' | 'kept') => void = () => undefined;

  keptFresh(): boolean {
    return false;
  }

  async call(call: UpstreamCall): Promise<UpstreamAnswer> {
    this.calls.push(call);
    const etag = `W/"v${this.version}"`;
    if (call.ifNoneMatch === etag) return { status: 304, headers: { etag }, body: Buffer.alloc(0) };
    const body = JSON.stringify({
      documents: [`version ${this.version}`],
      meta: { request_id: call.requestId },
    });
    return { status: 200, headers: { etag }, body: Buffer.from(body) };
  }

  health(): UpstreamHealth {
    return { url: 'http://upstream.test', breaker: 'closed', retryAt: null, lastFailure: null };
  }

  async close(): Promise<void> {}
}

describe('Gateway pollers', () => {
  it('ask with If-None-Match, emit only a new version, and stop with the last watcher', async () => {
    const upstream = new EtagUpstream();
    const pollers = new UpstreamPollers(upstream, 100, { warn: () => undefined });
    const resource = { companyId: 'c1', clientId: 'k1', path: '/v1/f1/events/e1/documents' };
    const first = pollers.watch(resource);
    const second = pollers.watch(resource);
    expect(pollers.pollerCount).toBe(1);
    const bodies = async (watcher: AsyncIterableIterator<UpstreamAnswer>) =>
      JSON.parse((await watcher.next()).value.body.toString()).documents as string[];
    expect(await bodies(first)).toEqual(['version 1']);
    expect(await bodies(second)).toEqual(['version 1']);

    await until(
      'conditional polls answered 304',
      () => upstream.calls.filter((c) => c.ifNoneMatch === 'W/"v1"').length >= 3,
    );
    upstream.version = 2;
    expect(await bodies(first)).toEqual(['version 2']);
    expect(await bodies(second)).toEqual(['version 2']);
    // One poller for both: its calls are one per interval, not one per watcher and interval.
    expect(new Set(upstream.calls.map((c) => `${c.companyId} ${c.path}`)).size).toBe(1);

    await first.return!();
    expect(pollers.pollerCount).toBe(1);
    await second.return!();
    expect(pollers.pollerCount).toBe(0);
    const made = upstream.calls.length;
    const another = pollers.watch({ ...resource, path: '/v1/f1/events/e2/documents' });
    await another.next();
    await another.return!();
    // The stopped poller asked nothing more: every call since was the new resource's.
    expect(new Set(upstream.calls.slice(made).map((c) => c.path))).toEqual(
      new Set(['/v1/f1/events/e2/documents']),
    );
  });
});
