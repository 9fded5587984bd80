import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI document of /v1 (`GET /v1/openapi.json`), made from the route schemas that also
 * validate requests, and the shared schemas of what the routes answer. Response schemas document;
 * they never shape a reply (replies are written with JSON.stringify, see `registerOpenApi`).
 */

const text = { type: 'string' } as const;
const nullableText = { type: 'string', nullable: true } as const;
const money = { type: 'number', description: 'In currency units, at most two decimals' } as const;
const date = { type: 'string', format: 'date' } as const;
const instant = {
  type: 'string',
  format: 'date-time',
  description: "In the facility's time zone, with its offset",
} as const;
const uuid = { type: 'string', format: 'uuid' } as const;

/** An object schema whose every property is required (the answers always carry every key). */
function record(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: Object.keys(properties),
    properties,
  };
}

const ref = (id: string) => ({ $ref: `${id}#` });
/** A shared schema, or null (OpenAPI 3.0 puts `nullable` beside `allOf`, since `$ref` takes no siblings). */
const nullableRef = (id: string) => ({ type: 'object', nullable: true, allOf: [ref(id)] });

/** Shared schemas, each a component of the document. */
const SCHEMAS = [
  {
    $id: 'Pagination',
    description:
      "will_paginate's meta: total_pages is at least 1; previous_page and next_page are null at the ends",
    ...record({
      current_page: { type: 'integer' },
      total_pages: { type: 'integer' },
      per_page: { type: 'integer' },
      total_entries: { type: 'integer' },
      previous_page: { type: 'integer', nullable: true },
      next_page: { type: 'integer', nullable: true },
    }),
  },
  {
    $id: 'Meta',
    description: 'The envelope every answer carries, after its data keys',
    type: 'object',
    required: ['status_code', 'status_message', 'status_cat', 'request_method', 'request_id', 'parameters'],
    properties: {
      pagination: ref('Pagination'),
      status_code: { type: 'integer' },
      status_message: text,
      status_cat: { type: 'string', description: 'https://http.cat/<status>' },
      request_method: text,
      request_id: { type: 'string', description: "The caller's X-Request-Id when valid, else a new UUID" },
      parameters: {
        type: 'object',
        description:
          'Path, query and body parameters as received, applied defaults, card and bank values as [FILTERED]',
        additionalProperties: true,
      },
      filters: { type: 'object', additionalProperties: true, description: 'Rate change updates only' },
      sorting: { type: 'object', nullable: true, description: 'Rate change updates only: null' },
      search_term: { type: 'string', nullable: true, description: 'Rate change updates only: null' },
    },
  },
  {
    $id: 'Problem',
    ...record({ parameter: text, message: text }),
  },
  {
    $id: 'ErrorEnvelope',
    description: 'Every error: meta alone, with message, error_code and errors after the usual keys',
    ...record({
      meta: {
        type: 'object',
        required: [
          'status_code',
          'status_message',
          'status_cat',
          'request_method',
          'request_id',
          'parameters',
          'message',
          'error_code',
          'errors',
        ],
        properties: {
          status_code: { type: 'integer' },
          status_message: text,
          status_cat: text,
          request_method: { type: 'string', nullable: true },
          request_id: text,
          parameters: { type: 'object', additionalProperties: true },
          message: { type: 'string', description: 'Names the parameter at fault' },
          error_code: {
            type: 'integer',
            nullable: true,
            description: 'The contract error code (see the description of each status)',
          },
          errors: { type: 'array', items: ref('Problem') },
        },
      },
    }),
  },
  {
    $id: 'RateAppliedAction',
    ...record({
      rate_info: record({
        applied_rate: record({ name: text, amount: money }),
        standard_rate: money,
      }),
      source: text,
      completed_on: date,
      completed_by: { type: 'string', description: 'Empty when no user completed it' },
      employee_id: text,
      user_id: text,
      time_completed: instant,
      event: text,
      old_ledger_id: { type: 'string', description: 'Empty when there was no earlier ledger' },
      new_ledger_id: uuid,
      unit_id: uuid,
      lead_id: uuid,
    }),
  },
  {
    $id: 'LedgerInsurance',
    ...record({
      id: uuid,
      effective_date: date,
      cancel_date: { ...date, nullable: true },
      data: record({
        description: text,
        retain_type: text,
        product_code: text,
        policy_number: text,
        retain_amount: text,
        coverage_amount: text,
        coverage_percentage: text,
        insurance_provider_key: text,
      }),
      amount: money,
    }),
  },
  {
    $id: 'LedgerService',
    ...record({
      id: uuid,
      effective_date: date,
      cancel_date: { ...date, nullable: true },
      data: record({ description: text, product_code: text }),
      amount: money,
    }),
  },
  {
    $id: 'LedgerDiscount',
    ...record({
      id: uuid,
      name: text,
      kind: text,
      description: text,
      start_date: date,
      end_date: { ...date, nullable: true },
      min_occupancy_months: { type: 'integer', nullable: true },
    }),
  },
  {
    $id: 'NoteEvent',
    ...record({
      id: uuid,
      notes: { type: 'array', items: record({ id: uuid, note: text, created_at: instant }) },
      created_by: record({ id: uuid, name: text, type: { type: 'string', enum: ['ClientApplication'] } }),
      unit_id: { ...uuid, nullable: true },
      tenant_id: { ...uuid, nullable: true },
    }),
  },
  {
    $id: 'EventDocument',
    ...record({
      id: uuid,
      description: text,
      type: text,
      is_relevant: { type: 'boolean' },
      created_at: instant,
    }),
  },
  {
    $id: 'MoveInReview',
    ...record({
      session_id: uuid,
      expires_at: instant,
      unit_id: uuid,
      tenant_id: { ...uuid, nullable: true },
      move_in_date: date,
      cost: record({
        rent: money,
        fees: { type: 'array', items: record({ id: uuid, description: text, amount: money }) },
        total: money,
      }),
      documents: {
        type: 'array',
        items: record({
          session_document_id: uuid,
          description: text,
          type: text,
          is_relevant: { type: 'boolean' },
          created_at: instant,
        }),
      },
    }),
  },
  {
    $id: 'InvoiceableItem',
    description:
      'Insurance items add coverage_amount, coverage_percentage, provider_name and provider_key; retail items quantity and is_rental_center_lock',
    type: 'object',
    required: [
      'id',
      'product_code',
      'kind',
      'description',
      'required_at_move_in',
      'required_at_transfer',
      'amount',
      'short_description',
      'show_in_sales_center',
      'tax_total',
      'total',
      'invoiceable_amounts',
    ],
    properties: {
      id: uuid,
      product_code: text,
      kind: { type: 'string', enum: ['fee', 'insurance', 'service', 'retail'] },
      description: text,
      required_at_move_in: { type: 'boolean' },
      required_at_transfer: { type: 'boolean' },
      amount: {
        description: 'The single tier amount, "Variable" with several tiers, the pre-tax price without any',
        oneOf: [{ type: 'number' }, { type: 'string', enum: ['Variable'] }],
      },
      short_description: nullableText,
      show_in_sales_center: { type: 'boolean' },
      tax_total: money,
      total: money,
      invoiceable_amounts: {
        type: 'array',
        items: record({
          id: uuid,
          amount: { type: 'number', description: 'Currency units, or a percentage for a percent tier' },
          kind: { type: 'string', enum: ['amount', 'percent'] },
          limit: { type: 'number', nullable: true },
        }),
      },
      coverage_amount: { type: 'number', nullable: true },
      coverage_percentage: { type: 'number', nullable: true },
      provider_name: nullableText,
      provider_key: nullableText,
      quantity: { type: 'integer', nullable: true, description: 'Units in stock' },
      is_rental_center_lock: { type: 'boolean' },
    },
  },
  {
    $id: 'PaymentEvent',
    ...record({
      id: uuid,
      amount: money,
      success: { type: 'boolean' },
      date: instant,
      payment_method: record({
        id: uuid,
        kind: { type: 'string', enum: ['credit_card', 'card_swipe', 'ach', 'check', 'cash', 'money_order'] },
        first_name: text,
        last_name: text,
        reuseable: { type: 'boolean' },
        card_number: {
          type: 'string',
          nullable: true,
          description: 'Cards: asterisks and the last four digits',
        },
        card_type: nullableText,
        expiration_date: { type: 'string', nullable: true, description: 'Cards: MM/YY' },
        billing_address: {
          type: 'object',
          nullable: true,
          additionalProperties: { type: 'string', nullable: true },
        },
      }),
      change_due: money,
    }),
  },
  {
    $id: 'RateChangeUpdate',
    ...record({
      id: uuid,
      facility_name: text,
      tenant_id: uuid,
      tenant_name: text,
      unit_id: uuid,
      unit_name: text,
      changed_at: instant,
      old_rate: money,
      new_rate: money,
      effective_on_date: date,
    }),
  },
];

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
    statuses.map((status) => [status, { description: ERRORS[status], ...ref('ErrorEnvelope') }]),
  );
}

/**
 * A 200 whose data keys are these, then `meta`, with the error answers. `otherKeys` is the schema
 * of keys not known in advance (a flipper's answer is keyed by its name).
 */
export function jsonResponses(description: string, data: Record<string, unknown>, otherKeys?: unknown) {
  const body = record({ ...data, meta: ref('Meta') });
  return {
    200: { description, ...body, ...(otherKeys ? { additionalProperties: otherKeys } : {}) },
    ...errorResponses(),
  };
}

/** A kept answer's responses: the 200 with its weak ETag, and 304 to a matching If-None-Match. */
export function conditional<R extends { 200: Record<string, unknown> }>(responses: R): R & { 304: unknown } {
  return {
    ...responses,
    200: {
      ...responses[200],
      headers: { ETag: { type: 'string', description: 'Weak: send it back in If-None-Match' } },
    },
    304: { description: 'Unchanged since the ETag sent in If-None-Match: no body', type: 'null' },
  };
}

export const refTo = ref;
export const nullableRefTo = nullableRef;

/** A 200 that is a PDF download; with the error answers (in the JSON envelope). */
export function pdfResponses(description: string, ...moreErrors: number[]) {
  return {
    200: {
      description,
      headers: {
        'Content-Disposition': { type: 'string', description: 'attachment; filename="<document>.pdf"' },
      },
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
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
  for (const schema of SCHEMAS) app.addSchema(schema);
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
