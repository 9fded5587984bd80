import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config';
import type { World } from '../../support/factories';
import { createConfiguredApp, postGraphql } from '../graphql-client';
import { ensureExplorerBundle } from './explorer-bundle';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** Production needs a key for secrets at rest (docs/operations.md#secrets-at-rest). */
const TEST_KEY = randomBytes(32).toString('base64');
const BUNDLE = path.join(__dirname, '../../../dist/graphql/explorer/bundle');
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src 'self'; connect-src 'self'; " +
  "img-src 'self' data:; font-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

type Configured = { app: FastifyInstance; world: World; close(): Promise<void> };

const browserGet = (app: FastifyInstance, url = '/graphql') =>
  app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT } });

/** The script and stylesheet the page links to, under /graphql/explorer/. */
function linkedAssets(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/graphql\/explorer\/[^"]+)"/g)].map((match) => match[1]);
}

beforeAll(() => ensureExplorerBundle());

describe('GRAPHQL_EXPLORER=graphiql (the default where introspection is on)', () => {
  let t: Configured;
  let manifest: { script: string; stylesheet: string; files: string[] };
  beforeAll(async () => {
    t = await createConfiguredApp('sqlite', { NODE_ENV: 'test' });
    manifest = JSON.parse(readFileSync(path.join(BUNDLE, 'manifest.json'), 'utf8'));
  });
  afterAll(() => t.close());

  it('serves GraphiQL to a browser without credentials, under a strict CSP, never kept stale', async () => {
    const res = await browserGet(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.body).toContain('<div id="graphiql" data-endpoint="/graphql">');
    expect(linkedAssets(res.body).sort()).toEqual(
      [`/graphql/explorer/${manifest.script}`, `/graphql/explorer/${manifest.stylesheet}`].sort(),
    );
    // Nothing from another origin: every link of the page is a path of this service (or data:).
    expect(res.body).not.toMatch(/(?:src|href)="(?!\/|data:)/);
  });

  it('serves the same page for /graphql?query=...', async () => {
    const res = await browserGet(t.app, '/graphql?query=%7B__typename%7D');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.body).toBe((await browserGet(t.app)).body);
  });

  it('serves each file of the bundle under its hashed name, immutable for a year', async () => {
    for (const name of manifest.files) {
      expect(name).toMatch(/^[\w.-]+\.[A-Z0-9]{8}\.(js|css)$/);
      const res = await t.app.inject({ method: 'GET', url: `/graphql/explorer/${name}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toBe(
        name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.rawPayload.equals(readFileSync(path.join(BUNDLE, name)))).toBe(true);
    }
  });

  it('sends the brotli or gzip variant the client accepts, with the same content', async () => {
    const name = manifest.script;
    const raw = readFileSync(path.join(BUNDLE, name));
    const br = await t.app.inject({
      method: 'GET',
      url: `/graphql/explorer/${name}`,
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(raw)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(raw.length / 3);
    const gzip = await t.app.inject({
      method: 'GET',
      url: `/graphql/explorer/${name}`,
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(raw)).toBe(true);
  });

  it('answers 404 for any name the bundle does not hold', async () => {
    for (const name of [
      'explorer.DEADBEEF.js',
      'manifest.json',
      `${manifest.script}.br`,
      '..%2Fexplorer.routes.js',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/graphql/explorer/${name}` });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.json()).toEqual({
        errors: [
          { message: 'no such file in this build of the explorer', extensions: { code: 'NOT_FOUND' } },
        ],
      });
    }
  });

  it('answers a GET that asks for JSON in JSON, pointing to POST; POST runs the query', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.json()).toEqual({
      errors: [
        {
          message:
            'send GraphQL operations with POST; GET /graphql serves only the explorer page (Accept: text/html)',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
    const posted = await postGraphql(
      t.app,
      { query: '{ __typename }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(posted.data).toEqual({ __typename: 'Query' });
  });
});

describe('GRAPHQL_EXPLORER=sandbox', () => {
  let t: Configured;
  beforeAll(async () => {
    t = await createConfiguredApp('sqlite', { NODE_ENV: 'test', GRAPHQL_EXPLORER: 'sandbox' });
  });
  afterAll(() => t.close());

  it("serves Apollo Sandbox's page, as before, and no GraphiQL files", async () => {
    const res = await browserGet(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/embeddable-sandbox/);
    expect(res.body).not.toContain('id="graphiql"');
    const manifest = JSON.parse(readFileSync(path.join(BUNDLE, 'manifest.json'), 'utf8'));
    const asset = await t.app.inject({ method: 'GET', url: `/graphql/explorer/${manifest.script}` });
    expect(asset.statusCode).toBe(404);
  });
});

describe.each([
  ['GRAPHQL_EXPLORER=off', { NODE_ENV: 'test', GRAPHQL_EXPLORER: 'off' }],
  ['production (off by default)', { NODE_ENV: 'production', SECRETS_KEY: TEST_KEY }],
])('%s', (_name, env) => {
  let t: Configured;
  beforeAll(async () => {
    t = await createConfiguredApp('sqlite', env);
  });
  afterAll(() => t.close());

  it('serves no page: a browser GET is answered as any GET, 405 pointing to POST', async () => {
    const res = await browserGet(t.app);
    expect(res.statusCode).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toEqual({
      errors: [{ message: 'send GraphQL operations with POST', extensions: { code: 'BAD_REQUEST' } }],
    });
  });
});

describe('GRAPHQL_EXPLORER=graphiql in production', () => {
  let t: Configured;
  beforeAll(async () => {
    t = await createConfiguredApp('sqlite', {
      NODE_ENV: 'production',
      SECRETS_KEY: TEST_KEY,
      GRAPHQL_EXPLORER: 'graphiql',
    });
  });
  afterAll(() => t.close());

  it('serves the page when the operator asks for it, introspection staying off', async () => {
    const res = await browserGet(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(CSP);
    const introspection = await postGraphql(
      t.app,
      { query: '{ __schema { queryType { name } } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(introspection.status).toBe(400);
  });
});

describe('the GRAPHQL_EXPLORER setting', () => {
  it('follows GRAPHQL_INTROSPECTION by default: graphiql where it is on, off where it is not', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).graphqlExplorer).toBe('graphiql');
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: TEST_KEY }).graphqlExplorer).toBe('off');
    expect(
      loadConfig({ NODE_ENV: 'production', SECRETS_KEY: TEST_KEY, GRAPHQL_INTROSPECTION: 'true' })
        .graphqlExplorer,
    ).toBe('graphiql');
    expect(loadConfig({ NODE_ENV: 'development', GRAPHQL_INTROSPECTION: 'false' }).graphqlExplorer).toBe(
      'off',
    );
  });

  it('refuses any other value, naming the choices', () => {
    expect(() => loadConfig({ GRAPHQL_EXPLORER: 'playground' })).toThrow(/GRAPHQL_EXPLORER/);
  });
});
