import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';

/**
 * The OpenAPI document of /v1 (`GET /v1/openapi.json`), made from the route schemas that also
 * validate requests, and the contract's shared schemas of what the routes answer (src/contract).
 * Response schemas document; they never shape a reply (replies are written with JSON.stringify,
 * see `registerOpenApi`).
 */

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
export async function registerOpenApi(
  app: FastifyInstance,
  sharedSchemas: readonly TSchema[],
): Promise<void> {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of sharedSchemas) app.addSchema(schema);
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
