import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { ErrorEnvelope, Meta } from '../contract/envelope.contract';
import { RefTo } from '../contract/kit';

/**
 * The responses a /v1 route's schema documents (its OpenAPI `response`): the 200 of the envelope,
 * a kept answer's ETag and 304, a PDF download, and the error answers every operation may give.
 * A leaf the route files import; rest/openapi-document.ts registers the document they end up in.
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
