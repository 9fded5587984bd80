import { createHmac } from 'node:crypto';
import net from 'node:net';
import OAuth from 'oauth-1.0a';
import { MAX_NESTING } from '../../src/edge/request-shape';
import { postGraphql } from '../graphql/graphql-client';
import { describeEachDialect } from '../support/harness';
import { createTestApp, oauthHeader, type TestApp } from '../support/http';
import { loadRichWorld, rowCounts, type RichWorld } from '../support/rich-world';

/** A JSON body with an extra key nested `levels` deep (the body itself is level 1). */
function withDeepKey(body: object, levels: number): string {
  const inner = levels - 1;
  return `${JSON.stringify(body).slice(0, -1)},"deep":${'{"a":'.repeat(inner)}1${'}'.repeat(inner)}}`;
}

function sendRaw(port: number, bytes: Buffer | string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, split), body: text.slice(split + 4) });
    });
    socket.end(bytes);
  });
}

function formSigner(client: { consumer_key: string; consumer_secret: string }) {
  return new OAuth({
    consumer: { key: client.consumer_key, secret: client.consumer_secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
}

describeEachDialect('the request edge', (dialect) => {
  let t: TestApp;
  let w: RichWorld;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    w = await loadRichWorld(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, type = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${t.world.client.bearer_token}`, 'content-type': type },
      payload,
    });

  describe('nesting', () => {
    it.each([
      ['notes', () => ({ note: { note_text: 'Gate code', tenant_id: w.tenantId } }), '/notes'],
      ['move-in review', () => ({ move_in: { unit_id: w.unitId } }), '/move_ins/review_cost'],
      ['e-sign', () => ({ email: 'ada@example.com' }), `/documents/{event}/send_esignable_documents`],
    ])(
      `%s: a body nested deeper than ${MAX_NESTING} levels is 400/4 naming the body, and writes nothing`,
      async (_label, body, path) => {
        const url = `/v1/${t.world.facility.id}${path.replace('{event}', w.eventId)}`;
        for (const levels of [MAX_NESTING + 1, 5000]) {
          const before = await rowCounts(t);
          const res = await post(url, withDeepKey(body(), levels));
          expect(res.statusCode).toBe(400);
          expect(res.json().meta).toMatchObject({
            error_code: 4,
            message: `body is nested deeper than ${MAX_NESTING} levels`,
            errors: [{ parameter: 'body', message: `is nested deeper than ${MAX_NESTING} levels` }],
          });
          expect(await rowCounts(t)).toEqual(before);
        }
        // At the limit the same request is taken.
        expect((await post(url, withDeepKey(body(), MAX_NESTING))).statusCode).toBe(200);
      },
    );

    it('a form body nested too deeply is 400/4', async () => {
      const res = await post(
        `/v1/${t.world.facility.id}/notes`,
        `note${'[a]'.repeat(40)}=1`,
        'application/x-www-form-urlencoded',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({ error_code: 4 });
    });

    it('GraphQL variables nested 5,000 levels are a 400 GraphQL error, also for a query that may be kept', async () => {
      const query = `query ($id: UUID!, $deep: String) { facility(id: $id) { flippers { name } } }`;
      const payload = `{"query":${JSON.stringify(query)},"variables":{"id":"${t.world.facility.id}","deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
      const res = await postGraphql(t.app, payload, { bearer: t.world.client.bearer_token });
      expect(res.status).toBe(400);
      expect(res.errors).toEqual([
        expect.objectContaining({
          message: `body is nested deeper than ${MAX_NESTING} levels`,
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', parameter: 'body' }),
        }),
      ]);
    });
  });

  describe('NUL characters: 400/4 naming the parameter, on every store', () => {
    const nul = 'a\u0000b';
    it.each([
      ['note.note_text', () => ({ note: { note_text: nul, tenant_id: w.tenantId } }), '/notes'],
      ['user_id', () => ({ note: { note_text: 'x', tenant_id: w.tenantId }, user_id: nul }), '/notes'],
      [
        'payment_method.first_name',
        () => ({
          retail_payment: { invoiceable_items: [{ invoiceable_item_id: w.retailItemId, quantity: 1 }] },
          payment_method: { kind: 'cash', first_name: nul, last_name: 'L', amount_tendered: 100 },
        }),
        '/invoiceable_items/retail_payment',
      ],
      [
        'payment_method.last_name',
        () => ({
          retail_payment: { invoiceable_items: [{ invoiceable_item_id: w.retailItemId, quantity: 1 }] },
          payment_method: { kind: 'cash', first_name: 'A', last_name: nul, amount_tendered: 100 },
        }),
        '/invoiceable_items/retail_payment',
      ],
    ])('%s', async (parameter, body, path) => {
      const before = await rowCounts(t);
      const res = await post(`/v1/${t.world.facility.id}${path}`, JSON.stringify(body()));
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({
        error_code: 4,
        errors: [{ parameter, message: 'must not contain a NUL character (U+0000)' }],
      });
      expect(await rowCounts(t)).toEqual(before);
    });

    it('a flipper name in the path, and in a form body', async () => {
      const res = await t.get(`/v1/${t.world.facility.id}/flippers/a%00b`);
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'flipper_name' }] });
      const form = await post(
        `/v1/${t.world.facility.id}/notes`,
        `note[note_text]=a%00b&note[tenant_id]=${w.tenantId}`,
        'application/x-www-form-urlencoded',
      );
      expect(form.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'note.note_text' }] });
    });

    it('a GraphQL string literal or variable', async () => {
      const literal = await postGraphql(
        t.app,
        { query: `{ facility(id: "${t.world.facility.id}") { flipper(name: "a\\u0000b") } }` },
        { bearer: t.world.client.bearer_token },
      );
      expect(literal.status).toBe(400);
      expect(literal.errors).toEqual([
        expect.objectContaining({
          message: 'Argument "name" must not contain a NUL character (U+0000).',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
      ]);
      const variable = await postGraphql(
        t.app,
        {
          query: 'query ($id: UUID!, $name: String!) { facility(id: $id) { flipper(name: $name) } }',
          variables: { id: t.world.facility.id, name: 'a\u0000b' },
        },
        { bearer: t.world.client.bearer_token },
      );
      expect(variable.status).toBe(400);
      expect(variable.errors![0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        parameter: 'variables.name',
      });
    });

    it('an OAuth nonce, in the header or the query string', async () => {
      const url = `/v1/${t.world.facility.id}/flippers`;
      const header = oauthHeader(t.world.client, { method: 'GET', url }).replace(
        /oauth_nonce="[^"]*"/,
        'oauth_nonce="a%00b"',
      );
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: header } });
      expect(res.statusCode).toBe(400);
      expect(res.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'oauth_nonce' }] });
      const query = await t.app.inject({
        method: 'GET',
        url: `${url}?oauth_consumer_key=k&oauth_nonce=a%00b`,
      });
      expect(query.json().meta).toMatchObject({ error_code: 4, errors: [{ parameter: 'oauth_nonce' }] });
    });
  });

  describe('methods', () => {
    it.each(['OPTIONS', 'TRACE', 'PUT', 'DELETE', 'PURGE', 'SEARCH'])(
      '%s on a known path is 405 with Allow, in the envelope, without credentials',
      async (method) => {
        const res = await t.app.inject({ method: method as 'GET', url: `/v1/${t.world.facility.id}/notes` });
        expect(res.statusCode).toBe(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.json().meta).toMatchObject({
          status_code: 405,
          request_method: method,
          error_code: null,
          message: `${method} is not allowed here; use POST`,
          parameters: { facility_id: t.world.facility.id },
        });
      },
    );

    it('on an unknown path any method is 404/9', async () => {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/v1/nowhere/at/all' });
      expect(res.statusCode).toBe(404);
      expect(res.json().meta).toMatchObject({ error_code: 9 });
    });

    it('OPTIONS on /graphql is 405 in GraphQL shape', async () => {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/graphql' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, POST');
      expect(res.json()).toEqual({
        errors: [{ message: 'send GraphQL operations with POST', extensions: { code: 'BAD_REQUEST' } }],
      });
    });
  });

  describe("what Node's HTTP parser refuses, answered in the envelope", () => {
    const auth = () => `Authorization: Bearer ${t.world.client.bearer_token}\r\n`;
    const path = () => `/v1/${t.world.facility.id}/flippers`;

    it.each([
      [
        'an unknown method',
        () => `FOO ${path()} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\n${auth()}\r\n`,
        405,
        null,
        'FOO',
      ],
      [
        'CONNECT',
        () => `CONNECT ${path()} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\n\r\n`,
        405,
        null,
        'CONNECT',
      ],
      [
        'a byte 0x80 in the URL',
        () =>
          Buffer.concat([
            Buffer.from(`GET ${path()}?a=`),
            Buffer.from([0x80]),
            Buffer.from(` HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\n\r\n`),
          ]),
        400,
        4,
        'GET',
      ],
      [
        'NUL in a header',
        () =>
          Buffer.concat([
            Buffer.from(`GET ${path()} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\nX-Note: a`),
            Buffer.from([0]),
            Buffer.from('\r\n\r\n'),
          ]),
        400,
        4,
        'GET',
      ],
      [
        'headers over 16 KB',
        () =>
          `GET ${path()} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\nX-Note: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        null,
        'GET',
      ],
      [
        'a URL over 16 KB',
        () => `GET ${path()}?a=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\n\r\n`,
        414,
        null,
        'GET',
      ],
      [
        'an Expect it cannot meet',
        () =>
          `POST ${path()} HTTP/1.1\r\nHost: x\r\nX-Request-Id: sweep-1\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}`,
        417,
        null,
        'POST',
      ],
    ])('%s', async (_label, bytes, status, errorCode, method) => {
      const res = await sendRaw(port, bytes());
      expect(res.head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(res.head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8/i);
      expect(res.head).toMatch(/\r\nx-request-id: sweep-1/i);
      if (status === 405) expect(res.head).toMatch(/\r\nallow: GET/i);
      expect(JSON.parse(res.body).meta).toMatchObject({
        status_code: status,
        status_cat: `https://http.cat/${status}`,
        request_method: method,
        request_id: 'sweep-1',
        parameters: {},
        error_code: errorCode,
        errors: expect.any(Array),
      });
    });

    it('on /graphql, in GraphQL shape', async () => {
      const res = await sendRaw(port, `FOO /graphql HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.head).toMatch(/^HTTP\/1.1 405 /);
      expect(JSON.parse(res.body)).toEqual({
        errors: [
          { message: 'FOO is not allowed here; use GET or POST', extensions: { code: 'BAD_REQUEST' } },
        ],
      });
    });
  });

  describe('OAuth 1.0 parameters in a form-encoded body (RFC 5849 section 3.5.2)', () => {
    it('are verified as the header would be', async () => {
      const url = `/v1/${t.world.facility.id}/notes`;
      const data = { 'note[note_text]': 'Signed in the body', 'note[tenant_id]': w.tenantId };
      const signer = formSigner(t.world.client);
      const oauth = signer.authorize({ url: `http://localhost${url}`, method: 'POST', data });
      const body = new URLSearchParams(
        Object.entries(oauth).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().note_event.notes[0].note).toBe('Signed in the body');
      expect(res.json().note_event.created_by).toMatchObject({ name: t.world.client.name });

      // The same body with a changed value no longer matches its signature.
      body.set('note[note_text]', 'Changed on the way');
      const forged = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
      expect(forged.statusCode).toBe(401);
      expect(forged.json().meta.message).toBe('Invalid OAuth Request: signature does not match');
    });
  });
});
