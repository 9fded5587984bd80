import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FacilityQuery, FacilityQueryVariables } from '../generated/graphql';
import type { World } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { codesOf, createConfiguredApp, operation, postGraphql, run } from './graphql-client';
import { ensureExplorerBundle } from './explorer/explorer-bundle';

const Facility = operation<FacilityQuery, FacilityQueryVariables>('facility.graphql', 'Facility');
/** Production needs a key for secrets at rest (docs/operations.md#secrets-at-rest). */
const TEST_KEY = randomBytes(32).toString('base64');
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

// The explorer's page names its bundle, which `npm run build` makes (scripts/build-explorer.js).
beforeAll(() => ensureExplorerBundle());

describeEachDialect('GraphQL with NODE_ENV=development', (dialect) => {
  let t: { app: FastifyInstance; world: World; close(): Promise<void> };
  beforeAll(async () => {
    t = await createConfiguredApp(dialect, { NODE_ENV: 'development' });
  });
  afterAll(() => t.close());

  it('serves the explorer page (GraphiQL) to a browser, without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/id="graphiql"/);
  });

  it('serves the Apollo Sandbox page to a browser with GRAPHQL_EXPLORER=sandbox', async () => {
    const sandbox = await createConfiguredApp(dialect, {
      NODE_ENV: 'development',
      GRAPHQL_EXPLORER: 'sandbox',
    });
    try {
      const res = await sandbox.app.inject({
        method: 'GET',
        url: '/graphql',
        headers: { accept: BROWSER_ACCEPT },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toMatch(/embeddable-sandbox/);
    } finally {
      await sandbox.close();
    }
  });

  it('answers introspection', async () => {
    const res = await postGraphql(
      t.app,
      { query: '{ __type(name: "Facility") { fields { name } } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ __type: { fields: expect.arrayContaining([{ name: 'flippers' }]) } });
  });
});

describeEachDialect('GraphQL with NODE_ENV=production', (dialect) => {
  let t: { app: FastifyInstance; world: World; close(): Promise<void> };
  beforeAll(async () => {
    t = await createConfiguredApp(dialect, { NODE_ENV: 'production', SECRETS_KEY: TEST_KEY });
  });
  afterAll(() => t.close());

  it('answers operations as in development', async () => {
    const res = await run(t, Facility, { id: t.world.facility.id });
    expect(res.status).toBe(200);
    expect(res.data?.facility?.name).toBe('Main Street');
  });

  it('serves no explorer page: a browser GET is 405, pointing to POST', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toEqual({
      errors: [{ message: 'send GraphQL operations with POST', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('refuses introspection', async () => {
    const res = await postGraphql(
      t.app,
      { query: '{ __schema { types { name } } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(400);
    expect(res.data).toBeUndefined();
    expect(codesOf(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(res.errors![0].message).toMatch(
      /^GraphQL introspection is off on this service \(GRAPHQL_INTROSPECTION/,
    );
  });

  it('suggests no field names for an unknown field', async () => {
    const res = await postGraphql(
      t.app,
      { query: `{ facility(id: "${t.world.facility.id}") { nme } }` },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.errors).toEqual([
      {
        message: 'Cannot query field "nme" on type "Facility".',
        locations: [{ line: 1, column: 58 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });
});

describeEachDialect('GraphQL in production with GRAPHQL_INTROSPECTION=true', (dialect) => {
  let t: { app: FastifyInstance; world: World; close(): Promise<void> };
  beforeAll(async () => {
    t = await createConfiguredApp(dialect, {
      NODE_ENV: 'production',
      SECRETS_KEY: TEST_KEY,
      GRAPHQL_INTROSPECTION: 'true',
    });
  });
  afterAll(() => t.close());

  it('serves the explorer page and answers introspection, as configured', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/graphql', headers: { accept: BROWSER_ACCEPT } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const res = await postGraphql(
      t.app,
      { query: '{ __schema { queryType { name } } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describeEachDialect('GraphQL under the rate limit', (dialect) => {
  let t: { app: FastifyInstance; world: World; close(): Promise<void> };
  beforeAll(async () => {
    t = await createConfiguredApp(dialect, { RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  it('answers 429 RATE_LIMITED with Retry-After once the client is over its limit', async () => {
    await run(t, Facility, { id: t.world.facility.id });
    await run(t, Facility, { id: t.world.facility.id });
    const res = await run(t, Facility, { id: t.world.facility.id });
    expect(res.status).toBe(429);
    expect(Number(res.raw.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.errors).toEqual([
      {
        message: expect.stringMatching(/^rate limit of 2 requests per minute exceeded/),
        extensions: {
          code: 'RATE_LIMITED',
          errorCode: null,
          parameter: null,
          problems: [],
          retryAfter: Number(res.raw.headers['retry-after']),
        },
      },
    ]);
  });
});
