/** The closed set of ways a domain operation can fail; each transport maps every kind. */
export type DomainErrorKind =
  | 'action_failed'
  | 'invalid_parameter'
  | 'conflicting_parameters'
  | 'disabled_for_tenants'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'rate_limited';

export const DOMAIN_ERROR_KINDS: readonly DomainErrorKind[] = [
  'action_failed',
  'invalid_parameter',
  'conflicting_parameters',
  'disabled_for_tenants',
  'unauthenticated',
  'forbidden',
  'not_found',
  'gone',
  'rate_limited',
];

export interface ParameterProblem {
  parameter: string;
  message: string;
}

/** A failure the caller caused or can act on; never carries internals. */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly problems: ParameterProblem[];
  /** Seconds to wait, for rate_limited. */
  readonly retryAfter?: number;

  constructor(
    kind: DomainErrorKind,
    message: string,
    options: { problems?: ParameterProblem[]; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.problems = options.problems ?? [];
    this.retryAfter = options.retryAfter;
  }

  /** A validation failure of one or more parameters. */
  static invalid(problems: ParameterProblem[]): DomainError {
    const message = problems.map((p) => `${p.parameter} ${p.message}`).join('; ');
    return new DomainError('invalid_parameter', message, { problems });
  }

  static invalidParameter(parameter: string, message: string): DomainError {
    return DomainError.invalid([{ parameter, message }]);
  }

  static notFound(parameter: string, what: string, id: string): DomainError {
    return new DomainError('not_found', `${parameter}: no ${what} ${truncate(id, 64)}`, {
      problems: [{ parameter, message: `no ${what} with this id` }],
    });
  }
}

export function truncate(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}...`;
}
