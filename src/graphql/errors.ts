import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import {
  DomainError,
  renderProblems,
  renderText,
  type ParameterProblem,
  type Path,
  type Spelling,
} from '../kernel/errors';
import { answerOf, INTERNAL_ERROR_MESSAGE, type GraphqlErrorCode } from '../edge/error-table';

/**
 * GraphQL's spelling of a command's paths: each field as the command names it, or as the operation
 * renames it (`{ noteText: 'input.noteText' }`), joined with dots, list positions in brackets.
 */
export function graphqlSpelling(renames: Readonly<Record<string, string>> = {}): Spelling {
  return {
    path: (path: Path) =>
      path.reduce<string>((name, part) => {
        if (typeof part === 'number') return `${name}[${part}]`;
        const spelled = renames[part] ?? part;
        return name ? `${name}.${spelled}` : spelled;
      }, ''),
    field: (name) => name,
  };
}

const GRAPHQL_SPELLING = graphqlSpelling();

/** A domain failure of an operation whose arguments name some fields otherwise than its command. */
class NamedDomainError extends Error {
  constructor(
    readonly failure: DomainError,
    readonly spelling: Spelling,
  ) {
    super(failure.message);
  }
}

/**
 * Runs a service call for a resolver whose arguments name the command's fields otherwise
 * (`{ noteText: 'input.noteText' }`), so its errors name what the client wrote.
 */
export async function withArgumentNames<T>(
  renames: Readonly<Record<string, string>>,
  work: () => T | Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof DomainError ? new NamedDomainError(error, graphqlSpelling(renames)) : error;
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

export function domainErrorExtensions(
  error: DomainError,
  spelling: Spelling = GRAPHQL_SPELLING,
): DomainErrorExtensions {
  const answer = answerOf(error.kind);
  const problems = renderProblems(error.problems, spelling).map((p) => ({
    parameter: p.parameter,
    message: clipMessage(p.message),
  }));
  const extensions: DomainErrorExtensions = {
    code: answer.graphqlCode,
    errorCode: answer.errorCode,
    parameter: problems[0]?.parameter ?? null,
    problems,
  };
  if (error.retryAfter !== undefined) extensions.retryAfter = error.retryAfter;
  return extensions;
}

/** The domain failure behind a resolver's error, with how its operation names the fields. */
function domainCause(error: unknown): { cause: DomainError; spelling: Spelling } | null {
  const cause = unwrapResolverError(error);
  if (cause instanceof NamedDomainError) return { cause: cause.failure, spelling: cause.spelling };
  if (cause instanceof DomainError) return { cause, spelling: GRAPHQL_SPELLING };
  return null;
}

/** A domain failure as GraphQL shows it: the message rendered with the operation's names. */
export function domainErrorMessage(error: DomainError, spelling: Spelling = GRAPHQL_SPELLING): string {
  return clipMessage(renderText(error.text, spelling));
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
  'COST_ESTIMATED_TOO_EXPENSIVE',
  'COST_ACTUAL_TOO_EXPENSIVE',
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
  const domain = domainCause(error);
  if (domain) return answerOf(domain.cause.kind).graphqlCode;
  if (!(error instanceof GraphQLError)) return null;
  const code = error.extensions.code;
  if (typeof code === 'string') return EXPOSED_CODES.has(code) ? code : null;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? 'BAD_REQUEST' : null;
}

/** The start of Apollo's refusal of `__schema` and `__type` when introspection is off. */
const APOLLO_INTROSPECTION_REFUSED = 'GraphQL introspection is not allowed';

export const INTROSPECTION_OFF_MESSAGE =
  'GraphQL introspection is off on this service (GRAPHQL_INTROSPECTION, off by default in production): the query asks for __schema or __type; its operator can set GRAPHQL_INTROSPECTION=true';

/** Apollo's formatError: domain errors get their code, client mistakes stay, the rest is masked. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const { locations, path } = formatted;
  const domain = domainCause(error);
  if (domain) {
    return {
      message: domainErrorMessage(domain.cause, domain.spelling),
      locations,
      path,
      extensions: domainErrorExtensions(domain.cause, domain.spelling),
    };
  }
  const code = exposedCode(error);
  if (code !== null) {
    const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
    // Apollo's own text tells to pass an option to ApolloServer; the operator sets a variable.
    const message = formatted.message.startsWith(APOLLO_INTROSPECTION_REFUSED)
      ? INTROSPECTION_OFF_MESSAGE
      : clipMessage(formatted.message);
    return { message, locations, path, extensions: { ...extensions, code } };
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
