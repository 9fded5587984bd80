import { DOMAIN_ERROR_KINDS, type DomainErrorKind, type ParameterProblem } from '../kernel/errors';

/** A failure as both transports answer it: the REST status and error_code, a message, the problems. */
export interface ErrorBody {
  status: number;
  errorCode: number | null;
  message: string;
  problems: ParameterProblem[];
}

/** How both transports answer a kind of domain failure. */
export interface ErrorAnswer {
  /** REST status. */
  readonly status: number;
  /** The contract's `error_code` (REST `meta.error_code`, GraphQL `extensions.errorCode`). */
  readonly errorCode: number | null;
  /** GraphQL `extensions.code`. */
  readonly graphqlCode: GraphqlErrorCode;
}

/** The `extensions.code` values this API answers for domain failures, beside Apollo's own. */
export type GraphqlErrorCode =
  | 'ACTION_FAILED'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'DISABLED_FOR_TENANTS'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GONE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE';

/**
 * The one table of what each kind of failure answers, read by REST and GraphQL alike. The switch
 * is exhaustive: a new kind does not compile until it has a row here.
 */
export function answerOf(kind: DomainErrorKind): ErrorAnswer {
  switch (kind) {
    case 'action_failed':
      return { status: 400, errorCode: 3, graphqlCode: 'ACTION_FAILED' };
    case 'invalid_parameter':
      return { status: 400, errorCode: 4, graphqlCode: 'BAD_USER_INPUT' };
    case 'conflicting_parameters':
      return { status: 400, errorCode: 5, graphqlCode: 'CONFLICT' };
    case 'disabled_for_tenants':
      return { status: 400, errorCode: 7, graphqlCode: 'DISABLED_FOR_TENANTS' };
    case 'unauthenticated':
      return { status: 401, errorCode: 2, graphqlCode: 'UNAUTHENTICATED' };
    case 'forbidden':
      return { status: 403, errorCode: 13, graphqlCode: 'FORBIDDEN' };
    case 'not_found':
      return { status: 404, errorCode: 9, graphqlCode: 'NOT_FOUND' };
    case 'gone':
      return { status: 410, errorCode: null, graphqlCode: 'GONE' };
    case 'rate_limited':
      return { status: 429, errorCode: null, graphqlCode: 'RATE_LIMITED' };
    case 'upstream_unavailable':
      return { status: 502, errorCode: null, graphqlCode: 'UPSTREAM_UNAVAILABLE' };
    case 'upstream_timeout':
      return { status: 504, errorCode: null, graphqlCode: 'UPSTREAM_UNAVAILABLE' };
  }
}

/** The fixed message of anything unexpected; its cause goes to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/**
 * The kind of a contract error answer, by its status and `error_code`: answerOf read backwards
 * (gateway mode reads the upstream's errors with it). A status only one kind answers is that kind
 * whatever its code; an answer no kind gives (a 400 with another code, a 500) is invalid_parameter.
 */
export function kindOfAnswer(status: number, errorCode: number | null | undefined): DomainErrorKind {
  const byStatus = DOMAIN_ERROR_KINDS.filter((kind) => answerOf(kind).status === status);
  const exact = byStatus.find((kind) => answerOf(kind).errorCode === (errorCode ?? null));
  return exact ?? (byStatus.length === 1 ? byStatus[0] : 'invalid_parameter');
}
