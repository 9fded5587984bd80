import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, type DomainErrorKind, type ParameterProblem } from '../domain/errors';
import { INTERNAL_ERROR_MESSAGE, restStatusOf } from '../rest/errors';

/** The `extensions.code` values this API answers, beside Apollo's own. */
export type GraphqlErrorCode =
  | 'ACTION_FAILED'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'DISABLED_FOR_TENANTS'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GONE'
  | 'RATE_LIMITED';

/** DomainError kind to GraphQL `extensions.code`: the only place this mapping lives. */
export function graphqlCodeOf(kind: DomainErrorKind): GraphqlErrorCode {
  switch (kind) {
    case 'action_failed':
      return 'ACTION_FAILED';
    case 'invalid_parameter':
      return 'BAD_USER_INPUT';
    case 'conflicting_parameters':
      return 'CONFLICT';
    case 'disabled_for_tenants':
      return 'DISABLED_FOR_TENANTS';
    case 'unauthenticated':
      return 'UNAUTHENTICATED';
    case 'forbidden':
      return 'FORBIDDEN';
    case 'not_found':
      return 'NOT_FOUND';
    case 'gone':
      return 'GONE';
    case 'rate_limited':
      return 'RATE_LIMITED';
  }
}

export interface DomainErrorExtensions {
  [key: string]: unknown;
  code: GraphqlErrorCode;
  /** The REST contract's error_code for the same failure. */
  errorCode: number | null;
  /** The first parameter at fault, null when none is named. */
  parameter: string | null;
  problems: ParameterProblem[];
  retryAfter?: number;
}

export function domainErrorExtensions(error: DomainError): DomainErrorExtensions {
  const extensions: DomainErrorExtensions = {
    code: graphqlCodeOf(error.kind),
    errorCode: restStatusOf(error.kind).errorCode,
    parameter: error.problems[0]?.parameter ?? null,
    problems: error.problems.map((p) => ({ parameter: p.parameter, message: clipMessage(p.message) })),
  };
  if (error.retryAfter !== undefined) extensions.retryAfter = error.retryAfter;
  return extensions;
}

/**
 * Codes whose messages are written for the client (by graphql-js, Apollo or this layer) and may be
 * shown as they are; anything else is masked.
 */
const EXPOSED_CODES: ReadonlySet<string> = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'UNAUTHENTICATED',
]);

// Words longer than 64 characters keep their first 48; a message keeps its first 1000.
const LONG_WORD = /\S{65,}/g;
const KEPT_OF_WORD = 48;
const MAX_MESSAGE = 1000;

/** Shortens echoed input (a 1 MB id, say) so an error message stays readable. */
export function clipMessage(message: string): string {
  const words = message.replace(LONG_WORD, (word) => {
    const closing = /[^\w]{0,3}$/.exec(word)?.[0] ?? '';
    return `${word.slice(0, KEPT_OF_WORD)}...${closing}`;
  });
  return words.length <= MAX_MESSAGE ? words : `${words.slice(0, MAX_MESSAGE)}...`;
}

/**
 * The code a client may see this error under, or null when it is unexpected (masked and logged).
 * Apollo reports some request mistakes (a persisted query's hash that does not match) with an
 * HTTP 4xx status and no code: those are BAD_REQUEST.
 */
export function exposedCode(error: unknown): string | null {
  const cause = unwrapResolverError(error);
  if (cause instanceof DomainError) return graphqlCodeOf(cause.kind);
  if (!(error instanceof GraphQLError)) return null;
  const code = error.extensions.code;
  if (typeof code === 'string') return EXPOSED_CODES.has(code) ? code : null;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? 'BAD_REQUEST' : null;
}

/** Apollo's formatError: domain errors get their code, client mistakes stay, the rest is masked. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const cause = unwrapResolverError(error);
  const { locations, path } = formatted;
  if (cause instanceof DomainError) {
    return { message: clipMessage(cause.message), locations, path, extensions: domainErrorExtensions(cause) };
  }
  const code = exposedCode(error);
  if (code !== null) {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    return { message: clipMessage(formatted.message), locations, path, extensions: { ...extensions, code } };
  }
  return { message: INTERNAL_ERROR_MESSAGE, locations, path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** A GraphQL-shaped body for a failure before Apollo runs (credentials, body parsing). */
export function transportErrorBody(
  message: string,
  extensions: Record<string, unknown>,
): { errors: GraphQLFormattedError[] } {
  return { errors: [{ message: clipMessage(message), extensions }] };
}
