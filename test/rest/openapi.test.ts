import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { loadRichWorld, type RichWorld } from '../support/rich-world';
import {
  encodeQuery,
  goodBody,
  goodPathValues,
  goodQuery,
  operationsOf,
  urlOf,
  type Operation,
} from '../support/operations';

/**
 * The OpenAPI document is what a client generator or a gateway builds its types from: every
 * operation has an operationId, every answer it can give is documented, and what the service
 * really answers (a 200 with real data, and errors) validates against the documented schema.
 */

interface Response {
  description?: string;
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

interface Document {
  openapi: string;
  servers?: unknown[];
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string }> };
  security: Array<Record<string, unknown>>;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Array<{ name: string; in: string }>;
        responses: Record<string, Response>;
      }
    >
  >;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** OpenAPI 3.0's `nullable: true` as JSON Schema: the schema, or null. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, toJsonSchema(value)]),
  );
  return nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

describeEachDialect('the OpenAPI document (GET /v1/openapi.json)', (dialect) => {
  let t: TestApp;
  let w: RichWorld;
  let doc: Document;
  let operations: Operation[];
  let auth: Record<string, string>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    w = await loadRichWorld(t);
    auth = { authorization: `Bearer ${t.world.client.bearer_token}` };
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    operations = operationsOf(doc);
  }, 60_000);
  afterAll(() => t.close());

  const operationOf = (o: Operation) => doc.paths[o.template][o.method.toLowerCase()];

  /** A validator of one documented answer; its $refs resolve in the document's components. */
  function validatorOf(o: Operation, status: number, type = 'application/json'): ValidateFunction {
    const response = operationOf(o).responses[String(status)];
    if (!response) throw new Error(`${o.method} ${o.template} documents no ${status} answer`);
    const schema = response.content?.[type]?.schema;
    if (!schema) throw new Error(`${o.method} ${o.template} documents no ${type} schema for ${status}`);
    return ajv.compile(toJsonSchema({ ...schema, components: doc.components }) as object);
  }

  function explain(validate: ValidateFunction): string {
    return ajv.errorsText(validate.errors, { separator: '\n' });
  }

  it('names every operation, once, and documents its errors in the envelope', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(operations.length).toBeGreaterThanOrEqual(18);
    const ids = operations.map((o) => operationOf(o).operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) {
      const responses = operationOf(o).responses;
      for (const status of ['200', '400', '401', '403', '404', '429', '500']) {
        expect([o.template, status, typeof responses[status]?.description]).toEqual([
          o.template,
          status,
          'string',
        ]);
      }
      expect(responses['400'].content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
  });

  it('documents the PDF downloads as application/pdf, and the expired session as 410', () => {
    const pdfs = operations.filter((o) => o.template.includes('/documents/{') && o.method === 'GET');
    expect(pdfs.map((o) => operationOf(o).operationId).sort()).toEqual([
      'downloadDocument',
      'downloadSessionDocument',
    ]);
    for (const o of pdfs)
      expect(Object.keys(operationOf(o).responses['200'].content ?? {})).toEqual(['application/pdf']);
    const session = pdfs.find((o) => o.template.endsWith('/session/{session_id}'))!;
    expect(operationOf(session).responses['410']).toBeDefined();
  });

  it('describes how to authenticate (OAuth 1.0 and bearer) and where the service is', () => {
    expect(doc.components.securitySchemes.bearer.type).toBe('http');
    expect(doc.components.securitySchemes.oauth1.type).toBe('apiKey');
    expect(doc.security).toEqual([{ oauth1: [] }, { bearer: [] }]);
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it("answers every operation's success as documented, with real data", async () => {
    const failures: string[] = [];
    const good = goodPathValues(t, w);
    for (const o of operations) {
      const res = await t.app.inject({
        method: o.method as 'GET',
        url: urlOf(o, good, encodeQuery(goodQuery(o, w))),
        headers: auth,
        ...(o.hasBody ? { payload: goodBody(o, w) } : {}),
      });
      const label = `${o.method} ${o.template}`;
      if (res.statusCode !== 200) {
        failures.push(`${label}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      const type = String(res.headers['content-type']).split(';')[0];
      if (type === 'application/pdf') {
        validatorOf(o, 200, 'application/pdf'); // documented
        if (!res.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-'))) failures.push(`${label}: not a PDF`);
        continue;
      }
      const validate = validatorOf(o, 200);
      const body = res.json() as Record<string, unknown>;
      if (!validate(body)) failures.push(`${label}: ${explain(validate)}`);
      // A list checked against its schema only when it holds something.
      const emptyLists = Object.entries(body).filter(
        ([, value]) => Array.isArray(value) && value.length === 0,
      );
      if (emptyLists.length > 0)
        failures.push(`${label}: ${emptyLists.map(([key]) => key).join(', ')} empty`);
    }
    expect(failures).toEqual([]);
  });

  it('answers errors (unknown ids, malformed parameters, no credentials) as documented', async () => {
    const failures: string[] = [];
    const good = goodPathValues(t, w);
    for (const o of operations) {
      const label = `${o.method} ${o.template}`;
      const unknown = Object.fromEntries(Object.keys(good).map((name) => [name, UNKNOWN_ID]));
      const cases = [
        {
          what: 'unknown ids',
          url: urlOf(o, { ...good, facility_id: UNKNOWN_ID, company_id: UNKNOWN_ID }),
          headers: auth,
        },
        {
          what: 'malformed ids',
          url: urlOf(o, { ...unknown, facility_id: 'not-an-id', company_id: 'not-an-id' }),
          headers: auth,
        },
        { what: 'no credentials', url: urlOf(o, good), headers: {} },
      ];
      for (const c of cases) {
        const res = await t.app.inject({
          method: o.method as 'GET',
          url: c.url,
          headers: c.headers,
          ...(o.hasBody ? { payload: goodBody(o, w) } : {}),
        });
        if (res.statusCode < 400) {
          failures.push(`${label} with ${c.what}: answered ${res.statusCode}`);
          continue;
        }
        let validate: ValidateFunction;
        try {
          validate = validatorOf(o, res.statusCode);
        } catch (error) {
          failures.push(`${label} with ${c.what}: ${(error as Error).message}`);
          continue;
        }
        if (!validate(res.json())) failures.push(`${label} with ${c.what}: ${explain(validate)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
