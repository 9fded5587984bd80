import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { describeEachDialect } from '../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../support/http';

describeEachDialect('operations endpoints and logs', (dialect) => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, { logLines });
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz without credentials', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('counts requests by route pattern in /metrics', async () => {
    await t.get(`/v1/${t.world.facility.id}/flippers`);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(
      /http_requests_total\{method="GET",route="\/v1\/:facility_id\/flippers",status_code="200"\} [1-9]/,
    );
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).not.toContain(t.world.facility.id);
  });

  it('counts kept and built answers of each cache in /metrics', async () => {
    const metric = async (line: RegExp) => {
      const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      return Number(line.exec(body)?.[1] ?? 0);
    };
    const hits = /answer_cache_lookups_total\{cache="rest",result="hit"\} (\d+)/;
    const misses = /answer_cache_lookups_total\{cache="rest",result="miss"\} (\d+)/;
    const url = `/v1/${t.world.facility.id}/invoiceable_items?per_page=3`;
    const [hitsBefore, missesBefore] = [await metric(hits), await metric(misses)];
    await t.get(url);
    await t.get(url);
    expect(await metric(misses)).toBe(missesBefore + 1);
    expect(await metric(hits)).toBe(hitsBefore + 1);
    expect(await metric(/answer_cache_bytes (\d+)/)).toBeGreaterThan(0);
  });

  it('serves the OpenAPI document of /v1 with every route it serves', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toContain('/v1/{facility_id}/flippers/{flipper_name}');
    expect(Object.keys(doc.paths).every((p: string) => p.startsWith('/v1/'))).toBe(true);
  });

  it('writes structured log lines with the request id and never a credential', async () => {
    logLines.length = 0;
    const url = `/v1/${t.world.facility.id}/flippers`;
    const header = oauthHeader(t.world.client, { method: 'GET', url });
    const signature = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(header)![1]);
    await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: header, 'x-request-id': 'log-check-1' },
    });
    await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}`, 'x-request-id': 'log-check-2' },
    });
    const oauth = new OAuth({
      consumer: { key: t.world.client.consumer_key, secret: t.world.client.consumer_secret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    const params = oauth.authorize({ url: `http://localhost${url}`, method: 'GET' });
    const querySignature = String(params.oauth_signature);
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const viaQuery = await t.app.inject({ method: 'GET', url: `${url}?${query}` });
    expect(viaQuery.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer wrong-token-value-123456' } });

    const text = logLines.join('');
    const parsed = logLines.map((line) => JSON.parse(line));
    expect(parsed.some((line) => line.reqId === 'log-check-1')).toBe(true);
    expect(parsed.some((line) => line.reqId === 'log-check-2' && line.res?.statusCode === 200)).toBe(true);
    for (const secret of [
      t.world.client.consumer_secret,
      t.world.client.bearer_token!,
      signature,
      querySignature,
      encodeURIComponent(querySignature),
      'wrong-token-value-123456',
      'OAuth ',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers /readyz 503 once the database is gone', async () => {
    const other = await createTestApp(dialect);
    await other.db.store.close();
    const res = await other.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    await other.app.close();
    await other.db.close().catch(() => undefined);
  });
});
