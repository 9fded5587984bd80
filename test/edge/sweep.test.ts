import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { loadRichWorld, rowCounts, type RichWorld } from '../support/rich-world';
import {
  encodeQuery,
  goodBody,
  goodPathValues,
  goodQuery,
  operationsOf,
  urlOf,
  type Json,
  type Operation,
} from '../support/operations';

/**
 * A hostile caller's sweep over every /v1 operation the OpenAPI document lists (so a new route is
 * swept without editing this file): malformed path, query and body values, nesting, NUL, raw
 * bytes, odd methods and content types. Every answer must be the envelope and never a 5xx, and a
 * refused request must leave every table's row count as it was.
 */

interface Case {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

/** Rails-style form pairs of a body: note[note_text]=..., items[][id]=... */
function formPairs(value: Json, prefix = ''): Array<[string, string]> {
  if (value === null) return [[prefix, '']];
  if (Array.isArray(value)) return value.flatMap((inner) => formPairs(inner, `${prefix}[]`));
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      formPairs(inner, prefix ? `${prefix}[${key}]` : key),
    );
  }
  return [[prefix, String(value)]];
}

function formBody(value: Json): string {
  return formPairs(value)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`,
    )
    .join('&');
}

function nested(levels: number, leaf: Json = 1): Json {
  let value: Json = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** Every leaf of a body with its path, arrays included. */
function leaves(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    const inner = entries.flatMap(([key, v]) => leaves(v, [...path, key]));
    return path.length > 0 ? [path, ...inner] : inner;
  }
  return [path];
}

function withValue(body: Json, path: Array<string | number>, value: Json): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  let at = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, Json>;
  at[path[path.length - 1]] = value;
  return copy;
}

const PATH_VALUES: Array<[string, string]> = [
  ['NUL', 'a%00b'],
  ['only NUL', '%00'],
  ['4,000 characters', 'x'.repeat(4000)],
  ['5,000 characters', 'x'.repeat(5000)],
  ['malformed percent-encoding', '%ZZ'],
  ['overlong UTF-8', '%C0%AF'],
  ['not a UUID', 'not-a-uuid'],
  ['an emoji', '%F0%9F%8F%AC'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['dot segments', '..%2F..%2Fetc'],
  ['a huge number', '99999999999999999999999999'],
  ['an exponent', '1e400'],
];

const QUERY_VALUES: Array<[string, string]> = [
  ['NUL', 'a%00b'],
  ['a huge number', '99999999999999999999999999'],
  ['an exponent', '1e400'],
  ['a negative number', '-1'],
  ['zero', '0'],
  ['a fraction', '1.5'],
  ['empty', ''],
  ['10,000 characters', 'x'.repeat(10_000)],
  ['malformed percent-encoding', '%ZZ'],
  ['an emoji', '%F0%9F%8F%AC'],
  ['a date out of range', '2026-02-30'],
  ['an instant without offset', '2026-11-01T00:00:00'],
];

const BODY_VALUES: Array<[string, Json]> = [
  ['NUL', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['a huge number', 1e308],
  ['a huge integer', 2 ** 80],
  ['a negative number', -1],
  ['zero', 0],
  ['a fraction', 1.5],
  ['true', true],
  ['false', false],
  ['null', null],
  ['empty', ''],
  ['blank', '   '],
  ['an empty list', []],
  ['an empty object', {}],
  ['a list', [1, 'a']],
  ['an object', { a: 1 }],
  ['100,000 characters', 'x'.repeat(100_000)],
  ['an emoji', '🏬'.repeat(10)],
  ['2,000 entries', Array.from({ length: 2000 }, () => 'a')],
  ['nested 40 levels', nested(40)],
  ['a NUL key', { 'a\u0000b': 1 }],
];

const METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'SEARCH',
  'PURGE',
  'PROPFIND',
  'LOCK',
];

function pathCases(operation: Operation, good: Record<string, string>, query: string): Case[] {
  return operation.pathParams.flatMap((name) =>
    PATH_VALUES.map(([label, value]) => ({
      label: `${operation.method} ${operation.template}: path ${name} ${label}`,
      method: operation.method,
      url: urlOf(operation, { ...good, [name]: value }, query),
    })),
  );
}

function queryCases(
  operation: Operation,
  good: Record<string, string>,
  base: Record<string, string>,
): Case[] {
  const names = [...new Set([...operation.queryParams, 'page', 'per_page'])];
  const url = (query: string) => urlOf(operation, good, query);
  const baseQuery = encodeQuery(base);
  const plus = (extra: string) => (baseQuery ? `${baseQuery}&${extra}` : extra);
  const cases: Case[] = names.flatMap((name) => [
    ...QUERY_VALUES.map(([label, value]) => ({
      label: `${operation.method} ${operation.template}: query ${name} ${label}`,
      method: operation.method,
      url: url(
        encodeQuery({ ...base, [name]: '' }).replace(
          `${encodeURIComponent(name)}=`,
          `${encodeURIComponent(name)}=${value}`,
        ),
      ),
    })),
    { label: `query ${name} as a list`, method: operation.method, url: url(plus(`${name}[]=1&${name}[]=2`)) },
    { label: `query ${name} as a hash`, method: operation.method, url: url(plus(`${name}[a]=1`)) },
    {
      label: `query ${name} nested 40 levels`,
      method: operation.method,
      url: url(plus(`${name}${'[a]'.repeat(40)}=1`)),
    },
    { label: `query ${name} twice`, method: operation.method, url: url(plus(`${name}=1&${name}=2`)) },
  ]);
  for (const [label, extra] of [
    ['__proto__', '__proto__[x]=1'],
    ['constructor.prototype', 'constructor[prototype][x]=1'],
    ['a NUL name', 'a%00b=1'],
    ['2,000 pairs', Array.from({ length: 2000 }, (_v, i) => `k${i}=1`).join('&')],
    ['a lone bracket', 'a[=1&b]=2&[]=3'],
  ] as const) {
    cases.push({
      label: `${operation.method} ${operation.template}: query ${label}`,
      method: operation.method,
      url: url(plus(extra)),
    });
  }
  return cases.map((c) => ({
    ...c,
    label: c.label.startsWith(operation.method)
      ? c.label
      : `${operation.method} ${operation.template}: ${c.label}`,
  }));
}

function bodyCases(operation: Operation, url: string, body: Record<string, Json>): Case[] {
  const json = (label: string, payload: string | Buffer, type = 'application/json'): Case => ({
    label: `${operation.method} ${operation.template}: ${label}`,
    method: operation.method,
    url,
    headers: { 'content-type': type },
    payload,
  });
  const cases: Case[] = [];
  for (const path of leaves(body)) {
    for (const [label, value] of BODY_VALUES) {
      cases.push(json(`body ${path.join('.')} ${label}`, JSON.stringify(withValue(body, path, value))));
    }
    cases.push(
      json(
        `form body ${path.join('.')} NUL`,
        formBody(withValue(body, path, 'a\u0000b')),
        'application/x-www-form-urlencoded',
      ),
    );
  }
  // Written as text: JSON.stringify itself runs out of stack on thousands of levels.
  const deep = (levels: number) =>
    `${JSON.stringify(body).slice(0, -1)},"deep":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
  cases.push(
    json('body nested 5,000 levels beside the fields', deep(5000)),
    json('body nested 33 levels beside the fields', deep(32)),
    json('body nested 2,350 levels', deep(2350)),
    json('malformed JSON', '{"a":'),
    json('an empty JSON body', ''),
    json('a JSON list', '[]'),
    json('a JSON string', '"x"'),
    json('JSON null', 'null'),
    json('a JSON number', '123'),
    json('a __proto__ key', JSON.stringify(body).replace(/^\{/, '{"__proto__":{"x":1},')),
    json('a constructor.prototype key', JSON.stringify({ ...body, constructor: { prototype: { x: 1 } } })),
    json('a NUL key at the top', JSON.stringify({ ...body, 'a\u0000': 1 })),
    json('bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
    json(
      'a byte order mark',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))]),
    ),
    json(
      '10,000 extra keys',
      JSON.stringify({
        ...body,
        ...Object.fromEntries(Array.from({ length: 10_000 }, (_v, i) => [`k${i}`, i])),
      }),
    ),
    json('a body over 1 MiB', JSON.stringify({ ...body, pad: 'x'.repeat(1_100_000) })),
    json('text/plain', JSON.stringify(body), 'text/plain'),
    json('application/xml', '<note/>', 'application/xml'),
    json(
      'multipart',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      'multipart/form-data; boundary=x',
    ),
    json('JSON in UTF-16', Buffer.from(JSON.stringify(body), 'utf16le'), 'application/json; charset=utf-16'),
    json('JSON sent as a form', JSON.stringify(body), 'application/x-www-form-urlencoded'),
    json('a form nested 50 levels', `a${'[b]'.repeat(50)}=1`, 'application/x-www-form-urlencoded'),
    json(
      'a form with 2,000 pairs',
      Array.from({ length: 2000 }, (_v, i) => `k${i}=1`).join('&'),
      'application/x-www-form-urlencoded',
    ),
    json('a form with __proto__', '__proto__[a]=1&note[__proto__]=1', 'application/x-www-form-urlencoded'),
    json('a form with a NUL name', `${formBody(body)}&a%00=1`, 'application/x-www-form-urlencoded'),
    json('a form with malformed percent-encoding', '%ZZ=1&a=%E0%A4%A', 'application/x-www-form-urlencoded'),
    {
      label: `${operation.method} ${operation.template}: a body without a content type`,
      method: operation.method,
      url,
      payload: JSON.stringify(body),
    },
    {
      label: `${operation.method} ${operation.template}: a gzip content encoding`,
      method: operation.method,
      url,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]),
    },
  );
  return cases;
}

function methodCases(operation: Operation, url: string, own: Set<string>): Case[] {
  return METHODS.filter((m) => !own.has(m)).map((method) => ({
    label: `${method} ${operation.template}`,
    method,
    url,
    headers: { 'content-type': 'application/json' },
    payload: method === 'GET' ? undefined : '{}',
  }));
}

/** What is wrong with an answer, or null: a 5xx, or anything on /v1 that is not the envelope. */
function answerProblem(
  status: number,
  type: string | undefined,
  text: string,
  method: string,
): string | null {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 200)}`;
  if (method === 'HEAD') return null;
  if (status === 200 && type?.startsWith('application/pdf')) return null;
  if (!type?.startsWith('application/json')) return `answered ${status} as ${type ?? 'no content type'}`;
  let body: { meta?: Record<string, unknown> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `answered ${status} with a body that is not JSON: ${text.slice(0, 100)}`;
  }
  const meta = body.meta;
  if (!meta || typeof meta !== 'object') return `answered ${status} without meta: ${text.slice(0, 200)}`;
  const expected = [
    'status_code',
    'status_message',
    'status_cat',
    'request_method',
    'request_id',
    'parameters',
  ];
  const keys = Object.keys(meta).filter((k) => k !== 'pagination');
  if (expected.some((k, i) => keys[i] !== k)) return `meta keys out of order: ${keys.join(', ')}`;
  if (meta.status_code !== status || meta.status_cat !== `https://http.cat/${status}`) {
    return `meta says ${String(meta.status_code)} for ${status}`;
  }
  if (status >= 400) {
    if (Object.keys(body).length !== 1) return 'an error with keys beside meta';
    if (typeof meta.message !== 'string' || meta.message === '') return 'an error without a message';
    if (!(meta.error_code === null || Number.isInteger(meta.error_code)))
      return 'error_code is not an integer or null';
    if (!Array.isArray(meta.errors)) return 'an error without an errors list';
  }
  return null;
}

/** Sends raw bytes and reads the whole answer: status, headers and body. */
function sendRaw(
  port: number,
  bytes: Buffer | string,
): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const type = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1];
      resolve({ status, type, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(bytes);
  });
}

describeEachDialect('a hostile sweep over every /v1 operation', (dialect) => {
  let t: TestApp;
  let w: RichWorld;
  let operations: Operation[];
  let port: number;
  let auth: Record<string, string>;

  beforeAll(async () => {
    // Thousands of requests from one client: the rate limit would answer most of them.
    t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    w = await loadRichWorld(t);
    auth = { authorization: `Bearer ${t.world.client.bearer_token}` };
    operations = operationsOf((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  }, 60_000);
  afterAll(() => t.close());

  /** Sends each case, collecting what went wrong; a refused request must change no row count. */
  async function sweep(cases: Case[]): Promise<string[]> {
    const failures: string[] = [];
    let counts = await rowCounts(t);
    for (const c of cases) {
      let res: LightMyRequestResponse;
      try {
        res = await t.app.inject({
          method: c.method as 'GET',
          url: c.url,
          headers: { ...auth, ...c.headers },
          payload: c.payload,
        });
      } catch (error) {
        failures.push(`${c.label}: the request failed: ${(error as Error).message}`);
        continue;
      }
      const problem = answerProblem(
        res.statusCode,
        res.headers['content-type'] as string | undefined,
        res.body,
        c.method,
      );
      if (problem) failures.push(`${c.label}: ${problem}`);
      const after = await rowCounts(t);
      if (res.statusCode >= 300) {
        const changed = Object.keys(after).filter((table) => after[table] !== counts[table]);
        if (changed.length > 0)
          failures.push(`${c.label}: refused with ${res.statusCode} but wrote to ${changed.join(', ')}`);
      }
      counts = after;
    }
    return failures;
  }

  it('lists every operation of the contract', () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
    expect(operations.filter((o) => o.hasBody).map((o) => o.template.split('/').pop())).toEqual(
      expect.arrayContaining(['notes', 'review_cost', 'send_esignable_documents', 'retail_payment']),
    );
  });

  it('answers malformed path parameters in the envelope, never 5xx', async () => {
    const good = goodPathValues(t, w);
    const cases = operations.flatMap((o) => pathCases(o, good, encodeQuery(goodQuery(o, w))));
    expect(await sweep(cases)).toEqual([]);
  }, 600_000);

  it('answers malformed query strings in the envelope, never 5xx', async () => {
    const good = goodPathValues(t, w);
    const cases = operations.flatMap((o) => queryCases(o, good, goodQuery(o, w)));
    expect(await sweep(cases)).toEqual([]);
  }, 600_000);

  it('answers malformed bodies and content types in the envelope, never 5xx, writing nothing when refused', async () => {
    const good = goodPathValues(t, w);
    const cases = operations
      .filter((o) => o.hasBody)
      .flatMap((o) => bodyCases(o, urlOf(o, good), goodBody(o, w)));
    expect(await sweep(cases)).toEqual([]);
  }, 600_000);

  it('answers other methods on every path 405 in the envelope', async () => {
    const good = goodPathValues(t, w);
    const byPath = new Map<string, Operation[]>();
    for (const o of operations) byPath.set(o.template, [...(byPath.get(o.template) ?? []), o]);
    const cases = [...byPath.values()].flatMap((ops) =>
      methodCases(
        ops[0],
        urlOf(ops[0], good),
        new Set(ops.map((o) => o.method).concat(ops.some((o) => o.method === 'GET') ? ['HEAD'] : [])),
      ),
    );
    const failures = await sweep(cases);
    expect(failures).toEqual([]);
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: { ...auth, ...c.headers },
        payload: c.payload,
      });
      if (res.statusCode !== 405) failures.push(`${c.label}: ${res.statusCode}, not 405`);
      else if (!res.headers.allow) failures.push(`${c.label}: 405 without Allow`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers what Node itself would refuse (raw bytes, unknown methods, oversized headers) in the envelope', async () => {
    const good = goodPathValues(t, w);
    const failures: string[] = [];
    const paths = [...new Set(operations.map((o) => urlOf(o, good)))];
    for (const path of paths) {
      const auth = `Authorization: Bearer ${t.world.client.bearer_token}\r\n`;
      const cases: Array<[string, Buffer | string, number]> = [
        ['an unknown method', `FOO ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 405],
        ['CONNECT', `CONNECT ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 405],
        [
          'a byte 0x80 in the URL',
          Buffer.concat([
            Buffer.from(`GET ${path}?a=`),
            Buffer.from([0x80, 0xff]),
            Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}\r\n`),
          ]),
          400,
        ],
        [
          'NUL in a header',
          Buffer.concat([
            Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}X-Note: a`),
            Buffer.from([0]),
            Buffer.from('b\r\n\r\n'),
          ]),
          400,
        ],
        [
          'a header over 16 KB',
          `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}X-Note: ${'a'.repeat(20_000)}\r\n\r\n`,
          431,
        ],
        ['a URL over 16 KB', `GET ${path}?a=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 414],
        [
          'an Expect it cannot meet',
          `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}Expect: teapot\r\nContent-Length: 2\r\n\r\n{}`,
          417,
        ],
        ['a request line that is not HTTP', `\x01\x02 garbage\r\n\r\n`, 400],
      ];
      for (const [label, bytes, status] of cases) {
        const res = await sendRaw(port, bytes);
        const problem = answerProblem(res.status, res.type, res.body, 'RAW');
        if (problem) failures.push(`${path}: ${label}: ${problem}`);
        else if (res.status !== status) failures.push(`${path}: ${label}: ${res.status}, not ${status}`);
      }
    }
    expect(failures).toEqual([]);
    // Still serving.
    expect((await t.get(`/v1/${t.world.facility.id}/flippers`)).statusCode).toBe(200);
  }, 600_000);
});
