import swagger from '@fastify/swagger';
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SHARED_SCHEMAS } from '../contract';
import { ErrorEnvelope, Meta } from '../contract/envelope.contract';
import { RefTo } from '../contract/kit';

/**
 * The OpenAPI document of /v1 (`GET /v1/openapi.json`), made from the route schemas that also
 * validate requests, and the contract's shared schemas of what the routes answer (src/contract).
 * Response schemas document; they never shape a reply (replies are written with JSON.stringify,
 * see `registerOpenApi`).
 */

/** What each error status means, as the answers' error_code tells it. */
const ERRORS: Record<number, string> = {
  400: 'Bad input: error_code 4 (a parameter missing or malformed), 5 (parameters in conflict), 3 (the action could not be done), 7 (disabled for tenants)',
  401: 'Credentials missing or invalid (error_code 2, "Invalid OAuth Request")',
  403: "The facility or company is not the client's (error_code 13)",
  404: 'Nothing has this id here, or no such route (error_code 9)',
  405: 'The path does not take this method (error_code null; see Allow)',
  410: 'The move-in session has expired (error_code null)',
  413: 'The body is larger than the limit (error_code null)',
  414: 'The URL is too long (error_code null)',
  415: 'The body is neither JSON nor form-encoded (error_code 4)',
  429: 'Too many requests (error_code null; see Retry-After)',
  500: 'Anything unexpected (error_code 1, a fixed message)',
};

/** The error answers every /v1 operation may give, plus those the route lists. */
export function errorResponses(...more: number[]): Record<number, unknown> {
  const statuses = [400, 401, 403, 404, 405, 413, 414, 415, 429, 500, ...more].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [status, { description: ERRORS[status], ...RefTo(ErrorEnvelope) }]),
  );
}

/**
 * A 200 whose data keys are these, then `meta`, with the error answers. `otherKeys` is the schema
 * of keys not known in advance (a flipper's answer is keyed by its name).
 */
export function jsonResponses(description: string, data: TProperties, otherKeys?: TSchema) {
  const body = Type.Object(
    { ...data, meta: RefTo(Meta) },
    { description, ...(otherKeys ? { additionalProperties: otherKeys } : {}) },
  );
  return { 200: body, ...errorResponses() };
}

/** A kept answer's responses: the 200 with its weak ETag, and 304 to a matching If-None-Match. */
export function conditional<R extends { 200: Record<string, unknown> }>(responses: R): R & { 304: unknown } {
  return {
    ...responses,
    200: {
      ...responses[200],
      headers: { ETag: Type.String({ description: 'Weak: send it back in If-None-Match' }) },
    },
    304: Type.Null({ description: 'Unchanged since the ETag sent in If-None-Match: no body' }),
  };
}

/** A 200 that is a PDF download; with the error answers (in the JSON envelope). */
export function pdfResponses(description: string, ...moreErrors: number[]) {
  return {
    200: {
      description,
      headers: {
        'Content-Disposition': Type.String({ description: 'attachment; filename="<document>.pdf"' }),
      },
      content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
    },
    ...errorResponses(...moreErrors),
  };
}

const TAGS = [
  { name: 'flippers', description: 'Feature flags of a facility and its company' },
  { name: 'rate applied actions', description: 'Rates offered and applied at move-ins and transfers' },
  { name: 'ledgers', description: "A ledger's insurance, services and discounts" },
  { name: 'notes', description: 'Notes on tenants, units and ledgers' },
  { name: 'documents', description: 'Event documents as PDFs, and e-sign delivery' },
  { name: 'move-ins', description: 'The cost of a move-in and its documents' },
  {
    name: 'invoiceable items',
    description: 'Fees, insurance, services and retail items, and retail payment',
  },
  { name: 'rate change updates', description: "A company's rate changes in a time window" },
];

/**
 * Registers the document's generator and its shared schemas. Replies are written with
 * JSON.stringify whatever their response schema says: the schemas document the answers, and a
 * serializer compiled from them could drop or reorder keys.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Facility Operations Service',
        version: '1.0.0',
        description:
          'The /v1 REST contract of facility-ops: every answer is the envelope (data keys, then meta). ' +
          'Authenticate with one-legged OAuth 1.0 or a bearer token.',
        license: { name: 'Proprietary', url: 'https://example.com/facility-ops/license' },
      },
      servers: [{ url: '/', description: 'This service' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          oauth1: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'One-legged OAuth 1.0 (RFC 5849): `Authorization: OAuth oauth_consumer_key="...", oauth_signature_method="HMAC-SHA1", ' +
              'oauth_timestamp="...", oauth_nonce="...", oauth_version="1.0", oauth_signature="..."`, HMAC-SHA1 or HMAC-SHA256, no token, ' +
              'signing key `percent-encode(consumer_secret)&`. The oauth_* parameters may also come in the query string or a ' +
              'form-encoded body. The timestamp must be within 300 s; a nonce is used once.',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A bearer token from `facility-ops clients create`',
          },
        },
      },
      security: [{ oauth1: [] }, { bearer: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
}
