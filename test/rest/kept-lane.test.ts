import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildItem } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp } from '../support/http';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A kept page's GET asked again is answered before Fastify routes it (src/rest/kept-lane.ts): over a
 * real keep-alive connection, since that is where it happens. `reached` lists the URLs Fastify's
 * own hooks saw, so each test can tell which answers came from the lane.
 */
describeEachDialect('a kept GET asked again, answered before Fastify', (dialect) => {
  /** An app listening on loopback, the URLs its Fastify hooks saw, and one keep-alive connection to it. */
  const serving = async (options: { env?: Record<string, string>; logLines?: string[] } = {}) => {
    const reached: string[] = [];
    const t = await createTestApp(dialect, {
      ...options,
      prepare: (app) =>
        app.addHook('onRequest', (request, _reply, done) => {
          reached.push(request.url);
          done();
        }),
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string, headers: Record<string, string> = {}, token = t.world.client.bearer_token!) =>
      new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}`, ...headers } },
          (res) => {
            sockets.add(res.socket);
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const close = async () => {
      agent.destroy();
      await t.close();
    };
    return { t, reached, get, sockets, close };
  };

  describe('with the page cache on and request lines not logged (LOG_LEVEL silent)', () => {
    let s: Awaited<ReturnType<typeof serving>>;
    beforeAll(async () => {
      s = await serving({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    afterAll(() => s.close());
    const items = () => `/v1/${s.t.world.facility.id}/invoiceable_items`;
    const seen = (url: string) => s.reached.filter((reached) => reached === url).length;

    it('answers the same bytes as the path through Fastify, its own request id and the same ETag', async () => {
      // The first request builds the page; the second, answered from it through Fastify, makes it known.
      await s.get(items());
      const first = await s.get(items(), { 'x-request-id': 'request-one-1' });
      const again = await s.get(items(), { 'x-request-id': 'request-two-2' });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(seen(items())).toBe(2);
      expect(again.text).toBe(first.text.replace('"request-one-1"', '"request-two-2"'));
      expect(JSON.parse(again.text).meta.request_id).toBe('request-two-2');
      expect(again.headers['x-request-id']).toBe('request-two-2');
      for (const name of ['etag', 'content-type', 'content-length'])
        expect([name, again.headers[name]]).toEqual([name, first.headers[name]]);
      // Without an id of its own, each answer gets a new one, in its header and its envelope.
      const [a, b] = [await s.get(items()), await s.get(items())];
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
      expect(JSON.parse(b.text).meta.request_id).toBe(b.headers['x-request-id']);
      expect(seen(items())).toBe(2);
      expect(s.sockets.size).toBe(1);
    });

    it('never answers a page a write changed: the next request shows it', async () => {
      await s.get(items());
      const before = JSON.parse((await s.get(items())).text).invoiceable_items.length;
      const reachedBefore = seen(items());
      const item = buildItem({ facility_id: s.t.world.facility.id, description: 'Lane lock' });
      await s.t.load({ invoiceable_items: [item] });
      const after = JSON.parse((await s.get(items())).text);
      expect(after.invoiceable_items).toHaveLength(before + 1);
      expect(after.invoiceable_items.map((row: { id: string }) => row.id)).toContain(item.id);
      // Built anew through Fastify; the requests after it answered from the lane again.
      expect(seen(items())).toBe(reachedBefore + 1);
      for (let i = 0; i < 2; i++)
        expect(JSON.parse((await s.get(items())).text).invoiceable_items).toHaveLength(before + 1);
      expect(seen(items())).toBe(reachedBefore + 1);
    });

    it("refuses another company's client the URL a caller's answer made known, as before", async () => {
      expect((await s.get(items())).status).toBe(200);
      const refused = await s.get(items(), {}, s.t.world.otherClient.bearer_token!);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).meta.error_code).toBe(13);
      expect((await s.get(items())).status).toBe(200);
    });

    it('answers a matching If-None-Match 304 through Fastify, as before', async () => {
      const tag = (await s.get(items())).headers.etag!;
      const reachedBefore = seen(items());
      const unchanged = await s.get(items(), { 'if-none-match': tag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
      expect(unchanged.headers.etag).toBe(tag);
      expect(seen(items())).toBe(reachedBefore + 1);
    });

    it("counts the lane's answers in the request metrics and the page cache's hits", async () => {
      const count = async (pattern: RegExp) => {
        const res = await s.t.app.inject({ method: 'GET', url: '/metrics' });
        return Number(pattern.exec(res.body)?.[1] ?? 0);
      };
      const requests =
        /http_requests_total\{method="GET",route="\/v1\/:facility_id\/invoiceable_items",status_code="200"\} (\d+)/;
      const hits = /answer_cache_lookups_total\{cache="rest",result="hit"\} (\d+)/;
      await s.get(items());
      const [requestsBefore, hitsBefore, reachedBefore] = [
        await count(requests),
        await count(hits),
        seen(items()),
      ];
      for (let i = 0; i < 3; i++) expect((await s.get(items())).status).toBe(200);
      expect(seen(items())).toBe(reachedBefore);
      expect(await count(requests)).toBe(requestsBefore + 3);
      expect(await count(hits)).toBe(hitsBefore + 3);
    });
  });

  describe('with a rate limit', () => {
    let s: Awaited<ReturnType<typeof serving>>;
    beforeAll(async () => {
      s = await serving({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
    });
    afterAll(() => s.close());

    it('counts each request once, and refuses the one over the limit in the envelope', async () => {
      const flippers = `/v1/${s.t.world.facility.id}/flippers`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await s.get(flippers)).status);
      expect(statuses).toEqual([200, 200, 200, 200]);
      // Built, then known through Fastify; the third and fourth answered before it.
      expect(s.reached.filter((url) => url === flippers)).toHaveLength(2);
      const limited = await s.get(flippers);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(limited.text).meta).toMatchObject({ status_code: 429, request_method: 'GET' });
    });
  });

  describe('with request lines logged (LOG_LEVEL info)', () => {
    const lines: string[] = [];
    let s: Awaited<ReturnType<typeof serving>>;
    beforeAll(async () => {
      s = await serving({ env: { RATE_LIMIT_PER_MINUTE: '0' }, logLines: lines });
    });
    afterAll(() => s.close());

    it('logs every request: the lane is off and Fastify answers each', async () => {
      const flippers = `/v1/${s.t.world.facility.id}/flippers`;
      for (let i = 0; i < 3; i++) expect((await s.get(flippers)).status).toBe(200);
      const completed = lines
        .map((line) => JSON.parse(line) as { msg?: string; res?: { statusCode?: number } })
        .filter((line) => line.msg === 'request completed' && line.res?.statusCode === 200);
      expect(completed).toHaveLength(3);
      expect(s.reached.filter((url) => url === flippers)).toHaveLength(3);
    });
  });
});
