import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { describeEachDialect } from '../support/harness';
import { buildClient } from '../support/factories';
import { createTestApp, oauthHeader, type TestApp } from '../support/http';

function signedQuery(client: { consumer_key: string; consumer_secret: string }, url: string): string {
  const oauth = new OAuth({
    consumer: { key: client.consumer_key, secret: client.consumer_secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const params = oauth.authorize({ url: `http://localhost${url}`, method: 'GET' });
  const query = new URLSearchParams(
    Object.entries(params)
      .filter(([k]) => k.startsWith('oauth_'))
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  return `${url}${url.includes('?') ? '&' : '?'}${query.toString()}`;
}

describeEachDialect('authentication', (dialect) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    url = `/v1/${t.world.facility.id}/flippers`;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(new Date()));

  const expect401 = (
    res: { statusCode: number; json: () => { meta: Record<string, unknown> } },
    detail: RegExp,
  ) => {
    expect(res.statusCode).toBe(401);
    expect(res.json().meta).toMatchObject({ status_code: 401, error_code: 2 });
    expect(res.json().meta.message).toMatch(/^Invalid OAuth Request/);
    expect(res.json().meta.message).toMatch(detail);
  };

  it('accepts a bearer token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unknown bearer token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer not-a-token-of-anyone-here' },
    });
    expect401(res, /bearer/);
  });

  it('accepts one-legged OAuth 1.0 with HMAC-SHA1 and HMAC-SHA256 in the header', async () => {
    for (const method of ['HMAC-SHA1', 'HMAC-SHA256'] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: oauthHeader(t.world.client, { method: 'GET', url }, method) },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('knows a consumer key at once once it is imported, though it was refused just before', async () => {
    const client = buildClient({ company_id: t.world.company.id });
    const ask = () =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: oauthHeader(client, { method: 'GET', url }) },
      });
    expect401(await ask(), /oauth_consumer_key/);
    await t.load({ client_applications: [client] });
    expect((await ask()).statusCode).toBe(200);
    // A known consumer signs many requests; each nonce still counts once.
    const header = oauthHeader(client, { method: 'GET', url });
    const once = () => t.app.inject({ method: 'GET', url, headers: { authorization: header } });
    expect((await once()).statusCode).toBe(200);
    expect401(await once(), /nonce/);
  });

  it('accepts OAuth parameters in the query string, and signs other query parameters too', async () => {
    const withQuery = `/v1/${t.world.facility.id}/flippers?extra=a%20b&other=1`;
    const res = await t.app.inject({ method: 'GET', url: signedQuery(t.world.client, withQuery) });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.parameters).toMatchObject({ extra: 'a b', other: '1' });
  });

  it('refuses a signature made with the wrong secret', async () => {
    const forged = { consumer_key: t.world.client.consumer_key, consumer_secret: 'not-the-secret-at-all' };
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: oauthHeader(forged, { method: 'GET', url }) },
    });
    expect401(res, /signature/);
  });

  it('refuses a request whose query was changed after signing', async () => {
    const header = oauthHeader(t.world.client, { method: 'GET', url: `${url}?a=1` });
    const res = await t.app.inject({ method: 'GET', url: `${url}?a=2`, headers: { authorization: header } });
    expect401(res, /signature/);
  });

  it('refuses an unknown consumer key', async () => {
    const stranger = { consumer_key: 'nobody-has-this-key', consumer_secret: 'whatever-secret-1234' };
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: oauthHeader(stranger, { method: 'GET', url }) },
    });
    expect401(res, /consumer_key/);
  });

  it('refuses a timestamp more than 300 s from the server clock, either way', async () => {
    for (const shift of [301_000, -301_000]) {
      t.clock.set(new Date(Date.now() + shift));
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: oauthHeader(t.world.client, { method: 'GET', url }) },
      });
      expect401(res, /timestamp/);
    }
  });

  it('refuses a nonce used twice, also by a second instance on the same database', async () => {
    const header = oauthHeader(t.world.client, { method: 'GET', url });
    const first = await t.app.inject({ method: 'GET', url, headers: { authorization: header } });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url, headers: { authorization: header } });
    expect401(again, /nonce/);

    const second = await buildApp({
      config: loadConfig({ NODE_ENV: 'test' }),
      store: t.db.store,
      clock: t.clock,
    });
    try {
      const header2 = oauthHeader(t.world.client, { method: 'GET', url });
      expect(
        (await t.app.inject({ method: 'GET', url, headers: { authorization: header2 } })).statusCode,
      ).toBe(200);
      expect401(
        await second.app.inject({ method: 'GET', url, headers: { authorization: header2 } }),
        /nonce/,
      );
    } finally {
      await second.app.close();
    }
  });

  it('refuses a three-legged token, an unsupported method and a malformed header', async () => {
    const oauth = new OAuth({
      consumer: { key: t.world.client.consumer_key, secret: t.world.client.consumer_secret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    const withToken = oauth.toHeader(
      oauth.authorize({ url: `http://localhost${url}`, method: 'GET' }, { key: 'tok', secret: 'sec' }),
    ).Authorization;
    expect401(
      await t.app.inject({ method: 'GET', url, headers: { authorization: withToken } }),
      /oauth_token/,
    );

    const plaintext = oauthHeader(t.world.client, { method: 'GET', url }).replace('HMAC-SHA1', 'PLAINTEXT');
    expect401(
      await t.app.inject({ method: 'GET', url, headers: { authorization: plaintext } }),
      /signature_method/,
    );

    expect401(await t.app.inject({ method: 'GET', url, headers: { authorization: 'OAuth' } }), /required/);
    expect401(
      await t.app.inject({ method: 'GET', url, headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
      /scheme/,
    );
  });
});
