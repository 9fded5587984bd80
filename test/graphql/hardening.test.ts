import { createHash } from 'node:crypto';
import type { FacilityQuery, FacilityQueryVariables } from '../generated/graphql';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { codesOf, operation, postGraphql, run, type GraphqlResponse } from './graphql-client';
import { ensureExplorerBundle } from './explorer/explorer-bundle';

const Facility = operation<FacilityQuery, FacilityQueryVariables>('facility.graphql', 'Facility');
const facilityBody = { query: Facility.document, operationName: Facility.operationName };

/** `company { facilities { ... } }` nested n times around the innermost selection. */
function nestCompanies(levels: number, inner = 'id'): string {
  let selection = inner;
  for (let i = 0; i < levels; i++) selection = `company { facilities { ${selection} } }`;
  return selection;
}

describeEachDialect('GraphQL hardening: bad requests answer clear GraphQL errors', (dialect) => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    ensureExplorerBundle();
    t = await createTestApp(dialect, { logLines });
  });
  afterAll(() => t.close());

  const send = (body: unknown, headers: Record<string, string> = {}) =>
    postGraphql(t.app, body, { bearer: t.world.client.bearer_token, headers });

  function expectOneError(
    res: GraphqlResponse<unknown>,
    status: number,
    code: string,
    message: string | RegExp,
  ) {
    expect(res.status).toBe(status);
    expect(codesOf(res)).toEqual([code]);
    const text = res.errors![0].message;
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
  }

  // Whatever a test sent, the service keeps answering normally.
  afterEach(async () => {
    const res = await run(t, Facility, { id: t.world.facility.id });
    expect(res.status).toBe(200);
    expect(res.data?.facility?.id).toBe(t.world.facility.id);
  });

  it('a malformed query is GRAPHQL_PARSE_FAILED with the position', async () => {
    const res = await send({ query: '{ facility(id: "x" { id }' });
    expectOneError(res, 400, 'GRAPHQL_PARSE_FAILED', 'Syntax Error: Expected Name, found "{".');
    expect(res.errors![0]).toMatchObject({ locations: [{ line: 1, column: 20 }] });
  });

  it('an unknown field is GRAPHQL_VALIDATION_FAILED naming it', async () => {
    const res = await send({ query: `{ facility(id: "${t.world.facility.id}") { id nme } }` });
    expectOneError(
      res,
      400,
      'GRAPHQL_VALIDATION_FAILED',
      'Cannot query field "nme" on type "Facility". Did you mean "name"?',
    );
  });

  it.each([
    ['a number for a UUID', { id: 42 }, 'Variable "$id" got invalid value 42; Value is not string: 42'],
    ['an object for a UUID', { id: { id: 'x' } }, /^Variable "\$id" got invalid value \{ id: "x" \}/],
    ['null for a required UUID', { id: null }, 'Variable "$id" of non-null type "UUID!" must not be null.'],
    ['no variables', undefined, 'Variable "$id" of required type "UUID!" was not provided.'],
  ])('a wrong variable type (%s) is BAD_USER_INPUT', async (_label, variables, message) => {
    const res = await send({ ...facilityBody, variables });
    expectOneError(res, 400, 'BAD_USER_INPUT', message);
  });

  it('a wrong variable type for a String argument is BAD_USER_INPUT', async () => {
    const res = await send({
      query: 'query ($id: UUID!, $name: String!) { facility(id: $id) { flipper(name: $name) } }',
      variables: { id: t.world.facility.id, name: 123 },
    });
    expectOneError(
      res,
      400,
      'BAD_USER_INPUT',
      'Variable "$name" got invalid value 123; String cannot represent a non string value: 123',
    );
  });

  it('an over-deep query is refused before it runs, with the depth and the limit', async () => {
    const res = await send({
      query: `query Deep { facility(id: "${t.world.facility.id}") { ${nestCompanies(6)} } }`,
    });
    expect(res.status).toBe(400);
    const depth = res.errors!.find((e) => (e.extensions.queryLimit as { name: string }).name === 'depth');
    expect(depth).toEqual({
      message:
        'Operation "Deep" nests fields 14 levels deep; the limit is 12. Query less deeply, or in two requests.',
      extensions: {
        code: 'GRAPHQL_VALIDATION_FAILED',
        queryLimit: { name: 'depth', maximum: 12, actual: 14 },
      },
    });
    expect(new Set(codesOf(res))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
  });

  it('an over-costly query is refused before it runs, with its cost and the limit', async () => {
    const res = await send({
      query: `{ company(id: "${t.world.company.id}") { facilities { ${nestCompanies(2)} } } }`,
    });
    expect(res.status).toBe(400);
    expect(res.errors).toEqual([
      {
        message:
          'The operation may return about 130101 objects (its estimated cost); the limit is 20000. ' +
          'Each object counts 1 and a list counts its page size (its @listSize, 50 when it declares ' +
          'none): ask for fewer nested lists or smaller pages.',
        extensions: {
          code: 'COST_ESTIMATED_TOO_EXPENSIVE',
          cost: { estimated: 130101, maximum: 20000 },
          queryLimit: { name: 'cost', maximum: 20000, actual: 130101 },
        },
      },
    ]);
  });

  it('counts the cost through fragments, spread many times', async () => {
    const query = `
      query Spread($id: UUID!) { company(id: $id) { ...A ...A } }
      fragment A on Company { facilities { ...B } }
      fragment B on Facility { company { facilities { company { facilities { id } } } } }
    `;
    const res = await send({ query, variables: { id: t.world.company.id } });
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions.queryLimit).toMatchObject({ name: 'cost' });
  });

  it('too many aliases are refused, with the count and the limit', async () => {
    const fields = Array.from({ length: 31 }, (_, i) => `f${i}: facility(id: $id) { id }`).join(' ');
    const res = await send({
      query: `query Many($id: UUID!) { ${fields} }`,
      variables: { id: t.world.facility.id },
    });
    expectOneError(
      res,
      400,
      'GRAPHQL_VALIDATION_FAILED',
      'Operation "Many" uses 31 aliases; the limit is 30. Use fewer aliases, or several requests.',
    );
  });

  it('thirty aliases still run', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => `f${i}: facility(id: $id) { id }`).join(' ');
    const res = await send({
      query: `query ($id: UUID!) { ${fields} }`,
      variables: { id: t.world.facility.id },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.data as object)).toHaveLength(30);
  });

  it('a document of too many tokens is refused while parsing', async () => {
    const res = await send({ query: `{ ${'__typename '.repeat(6000)} }` });
    expectOneError(
      res,
      400,
      'GRAPHQL_PARSE_FAILED',
      'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.',
    );
  });

  it('a variables payload over the body limit is 413 in GraphQL shape', async () => {
    const res = await send({ ...facilityBody, variables: { id: 'x'.repeat(1_100_000) } });
    expectOneError(res, 413, 'BAD_REQUEST', 'request body is larger than 1048576 bytes');
  });

  it('a large variable under the body limit is BAD_USER_INPUT with a short message', async () => {
    const res = await send({ ...facilityBody, variables: { id: 'x'.repeat(900_000) } });
    expectOneError(res, 400, 'BAD_USER_INPUT', /^Variable "\$id" got invalid value "x{47}\.\.\.";/);
    expect(res.errors![0].message.length).toBeLessThan(200);
  });

  it('a body that is not JSON is BAD_REQUEST', async () => {
    const res = await send('{"query": ');
    expectOneError(res, 400, 'BAD_REQUEST', 'body is not valid JSON');
  });

  it('a body without a query is BAD_REQUEST', async () => {
    const res = await send({ variables: {} });
    expectOneError(res, 400, 'BAD_REQUEST', /non-empty `query`/);
  });

  it.each([
    [
      'an operationName the document does not hold',
      { query: '{ __typename }', operationName: 'Nope' },
      'Unknown operation named "Nope".',
    ],
    [
      'two operations and no operationName',
      { query: 'query A { __typename } query B { __typename }' },
      'Must provide operation name if query contains multiple operations.',
    ],
    [
      'two operations and an operationName naming neither',
      { query: 'query A { __typename } mutation B { __typename }', operationName: 'C' },
      'Unknown operation named "C".',
    ],
  ])('%s is OPERATION_RESOLUTION_FAILURE (400), the caller’s error', async (_label, body, message) => {
    logLines.length = 0;
    const res = await send(body);
    expectOneError(res, 400, 'OPERATION_RESOLUTION_FAILURE', message);
    // Not taken for a fault of the service: nothing logged as an error.
    expect(logLines.filter((line) => /"level":50/.test(line))).toEqual([]);
  });

  it('a document of two operations runs the one operationName names', async () => {
    const res = await send({
      query: 'query A { a: __typename } query B { b: __typename }',
      operationName: 'B',
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ b: 'Query' });
  });

  it('a batch of operations is refused (each would escape the per-operation limits)', async () => {
    const res = await send([{ query: '{ __typename }' }, { query: '{ __typename }' }]);
    expectOneError(res, 400, 'BAD_REQUEST', 'Operation batching disabled.');
  });

  it('a form-encoded POST is blocked by CSRF prevention', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${t.world.client.bearer_token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'query=%7B__typename%7D',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/Cross-Site Request Forgery/),
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('a text/plain POST is blocked by CSRF prevention too', async () => {
    const res = await send('{ __typename }', { 'content-type': 'text/plain' });
    expectOneError(
      res,
      400,
      'BAD_REQUEST',
      /^This operation has been blocked as a potential Cross-Site Request Forgery/,
    );
  });

  it('a content type nothing parses is 415 in GraphQL shape', async () => {
    const res = await send('<query/>', { 'content-type': 'application/xml' });
    expectOneError(
      res,
      415,
      'BAD_REQUEST',
      'body must be application/json or application/x-www-form-urlencoded',
    );
  });

  it('other methods are 405 naming POST', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/graphql' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.json()).toEqual({
      errors: [{ message: 'send GraphQL operations with POST', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers automatic persisted queries from a cache', async () => {
    const query = `{ facility(id: "${t.world.facility.id}") { name } }`;
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = { persistedQuery: { version: 1, sha256Hash } };

    const unknown = await send({ extensions });
    expectOneError(unknown, 200, 'PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound');
    const registered = await send({ query, extensions });
    expect(registered.data).toEqual({ facility: { name: 'Main Street' } });
    const byHash = await send({ extensions });
    expect(byHash.status).toBe(200);
    expect(byHash.data).toEqual({ facility: { name: 'Main Street' } });

    const wrongHash = await send({ query: '{ __typename }', extensions });
    expectOneError(wrongHash, 400, 'BAD_REQUEST', 'provided sha does not match query');
  });

  it('masks an unexpected failure and logs it with the request id', async () => {
    const spy = jest
      .spyOn(t.services.flippers, 'enabledFlippers')
      .mockRejectedValueOnce(new Error('relation "secret_table" does not exist'));
    logLines.length = 0;
    const res = await send(
      { query: `{ facility(id: "${t.world.facility.id}") { name flippers } }` },
      { 'x-request-id': 'req-graphql-boom' },
    );
    spy.mockRestore();
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ facility: null });
    expect(res.errors).toEqual([
      {
        message: 'Internal server error',
        locations: [{ line: 1, column: 63 }],
        path: ['facility', 'flippers'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      },
    ]);
    expect(res.raw.body).not.toMatch(/secret_table|stack/);
    const logged = logLines.map((line) => JSON.parse(line)).find((l) => l.msg === 'graphql operation failed');
    expect(logged).toMatchObject({
      reqId: 'req-graphql-boom',
      level: 50,
      err: { message: 'relation "secret_table" does not exist' },
      path: ['facility', 'flippers'],
    });
  });

  it('serves the explorer page (GraphiQL) on GET with Accept: text/html, without credentials', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/graphql',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/id="graphiql"/);
  });

  it('a GET that does not ask for the page is 405, pointing to POST', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.json().errors[0]).toEqual({
      message:
        'send GraphQL operations with POST; GET /graphql serves only the explorer page (Accept: text/html)',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('answers introspection outside production', async () => {
    const res = await send({ query: '{ __schema { queryType { name } } }' });
    expect(res.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});
