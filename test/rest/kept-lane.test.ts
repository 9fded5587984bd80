import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PageCache } from '../../src/caching/page-cache';
import { GraphqlResponseCache } from '../../src/graphql/response-cache';
import { buildItem } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createTestApp } from '../support/http';

const ITEMS = `query LaneItems($id: UUID!) {
  facility(id: $id) { id invoiceableItems { entries { id description } } }
}`;

/** The headers of an answer that are the same for every request of it (not its request id or date). */
function sameHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { 'x-request-id': _id, date: _date, ...rest } = headers;
  return rest;
}

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
    /** One request over the keep-alive connection: GET by default, or POST of `body` as JSON. */
    const send = (
      method: 'GET' | 'HEAD' | 'POST',
      path: string,
      headers: Record<string, string>,
      token: string,
      body?: string,
    ) =>
      new Promise<Answer>((resolve, reject) => {
        const sent: Record<string, string> = { authorization: `Bearer ${token}`, ...headers };
        if (body !== undefined) {
          sent['content-type'] = 'application/json';
          sent['content-length'] = String(Buffer.byteLength(body));
        }
        const req = httpRequest({ host: '127.0.0.1', port, path, method, agent, headers: sent }, (res) => {
          sockets.add(res.socket);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const get = (path: string, headers: Record<string, string> = {}, token = t.world.client.bearer_token!) =>
      send('GET', path, headers, token);
    /** A GraphQL POST of the item page query for `facilityId`. */
    const post = (
      facilityId: string,
      headers: Record<string, string> = {},
      token = t.world.client.bearer_token!,
    ) =>
      send(
        'POST',
        '/graphql',
        headers,
        token,
        JSON.stringify({ query: ITEMS, variables: { id: facilityId } }),
      );
    const close = async () => {
      agent.destroy();
      await t.close();
    };
    return { t, reached, get, post, send, sockets, close };
  };

  describe('with the page cache on and request lines not logged (LOG_LEVEL silent)', () => {
    let s: Awaited<ReturnType<typeof serving>>;
    beforeAll(async () => {
      s = await serving({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    afterAll(() => s.close());
    const items = () => `/v1/${s.t.world.facility.id}/invoiceable_items`;
    const post: typeof s.post = (...args) => s.post(...args);
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

    it("answers a HEAD with the GET's headers and no body, through Fastify, as before", async () => {
      const full = await s.get(items());
      const reachedBefore = seen(items());
      const head = await s.send('HEAD', items(), {}, s.t.world.client.bearer_token!);
      expect([head.status, head.text]).toEqual([200, '']);
      for (const name of ['etag', 'content-type', 'content-length'])
        expect([name, head.headers[name]]).toEqual([name, full.headers[name]]);
      expect(seen(items())).toBe(reachedBefore + 1);
    });

    it('answers a GraphQL text answered from a kept response before, byte for byte, before Fastify', async () => {
      const facility = s.t.world.facility.id;
      const executed = await post(facility);
      expect(executed.status).toBe(200);
      // The second, answered from the kept response through Fastify, makes its text known.
      expect((await post(facility)).text).toBe(executed.text);
      const reachedBefore = seen('/graphql');
      const again = await post(facility, { 'x-request-id': 'graphql-lane-1' });
      expect(again.text).toBe(executed.text);
      expect(sameHeaders(again.headers)).toEqual(sameHeaders(executed.headers));
      expect(again.headers['x-request-id']).toBe('graphql-lane-1');
      expect(seen('/graphql')).toBe(reachedBefore);
      // Another company's client sending the same text gets its own answer, through Fastify.
      const other = await post(facility, {}, s.t.world.otherClient.bearer_token!);
      expect(other.status).toBe(200);
      expect(
        JSON.parse(other.text).errors.map((e: { extensions: { code: string } }) => e.extensions.code),
      ).toEqual(['FORBIDDEN']);
      expect(seen('/graphql')).toBe(reachedBefore + 1);
    });

    it('answers a GraphQL text the write after it changed from the new data', async () => {
      const facility = s.t.world.facility.id;
      await post(facility);
      const before = JSON.parse((await post(facility)).text).data.facility.invoiceableItems.entries.length;
      const item = buildItem({ facility_id: facility, description: 'Lane padlock' });
      await s.t.load({ invoiceable_items: [item] });
      for (let i = 0; i < 3; i++) {
        const entries = JSON.parse((await post(facility)).text).data.facility.invoiceableItems.entries;
        expect(entries).toHaveLength(before + 1);
        expect(entries.map((entry: { id: string }) => entry.id)).toContain(item.id);
      }
    });

    it('hands a request on to Fastify when the lane fails before answering, which answers it', async () => {
      for (let i = 0; i < 2; i++) await s.get(items());
      const expected = JSON.parse((await s.get(items())).text).invoiceable_items;
      const reachedBefore = seen(items());
      const failing = jest.spyOn(PageCache.prototype, 'currentNow').mockImplementationOnce(() => {
        throw new Error('the revision could not be read');
      });
      try {
        const answered = await s.get(items());
        expect(answered.status).toBe(200);
        expect(JSON.parse(answered.text).invoiceable_items).toEqual(expected);
        expect(failing).toHaveBeenCalled();
        expect(seen(items())).toBe(reachedBefore + 1);
      } finally {
        failing.mockRestore();
      }
      // GraphQL's, alike.
      const facility = s.t.world.facility.id;
      for (let i = 0; i < 2; i++) await post(facility);
      const executed = (await post(facility)).text;
      const reachedGraphql = seen('/graphql');
      const failingGraphql = jest
        .spyOn(GraphqlResponseCache.prototype, 'keptAnswerNow')
        .mockImplementationOnce(() => {
          throw new Error('the tokens could not be read');
        });
      try {
        const answered = await post(facility);
        expect([answered.status, answered.text]).toEqual([200, executed]);
        expect(seen('/graphql')).toBe(reachedGraphql + 1);
      } finally {
        failingGraphql.mockRestore();
      }
    });

    it("counts the lane's answers in the request metrics and the page cache's hits", async () => {
      const count = async (pattern: RegExp) => {
        const res = await s.t.app.inject({ method: 'GET', url: '/metrics' });
        return Number(pattern.exec(res.body)?.[1] ?? 0);
      };
      const requests =
        /http_requests_total\{method="GET",route="\/v1\/:facility_id\/invoiceable_items",status_code="200"\} (\d+)/;
      const hits = /answer_cache_lookups_total\{cache="rest",result="hit"\} (\d+)/;
      // Built (if a write came before), then made known.
      for (let i = 0; i < 2; i++) await s.get(items());
      const [requestsBefore, hitsBefore, reachedBefore] = [
        await count(requests),
        await count(hits),
        seen(items()),
      ];
      for (let i = 0; i < 3; i++) expect((await s.get(items())).status).toBe(200);
      expect(seen(items())).toBe(reachedBefore);
      expect(await count(requests)).toBe(requestsBefore + 3);
      expect(await count(hits)).toBe(hitsBefore + 3);
      // GraphQL's, as its operations and POST requests.
      const facility = s.t.world.facility.id;
      for (let i = 0; i < 2; i++) await post(facility);
      const posts = /http_requests_total\{method="POST",route="\/graphql",status_code="200"\} (\d+)/;
      const operations = /graphql_operations_total\{operation="other",cache="hit"\} (\d+)/;
      const [postsBefore, operationsBefore, reachedGraphql] = [
        await count(posts),
        await count(operations),
        seen('/graphql'),
      ];
      for (let i = 0; i < 3; i++) expect((await post(facility)).status).toBe(200);
      expect(seen('/graphql')).toBe(reachedGraphql);
      expect(await count(posts)).toBe(postsBefore + 3);
      expect(await count(operations)).toBe(operationsBefore + 3);
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

    it('counts each GraphQL request once, and refuses the one over the limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await s.post(s.t.world.otherFacility.id, {}, s.t.world.otherClient.bearer_token!)).status,
        );
      expect(statuses).toEqual([200, 200, 200, 200]);
      expect(s.reached.filter((url) => url === '/graphql')).toHaveLength(2);
      const limited = await s.post(s.t.world.otherFacility.id, {}, s.t.world.otherClient.bearer_token!);
      expect(limited.status).toBe(429);
      expect(JSON.parse(limited.text).errors[0].extensions.code).toBe('RATE_LIMITED');
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
