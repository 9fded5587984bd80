import { maskCardNumbers } from './card-numbers';

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
  | 'rate_limited'
  /** Gateway mode: the upstream deployment refused the connection, failed or answered nonsense. */
  | 'upstream_unavailable'
  /** Gateway mode: the upstream deployment did not answer in time. */
  | 'upstream_timeout';

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
  'upstream_unavailable',
  'upstream_timeout',
];

/**
 * Where in a command a problem is: field names as the command spells them (camelCase) and list
 * positions, `['paymentMethod', 'cardNumber']` or `['invoiceableItems', 0, 'quantity']`. Each
 * transport spells it its own way (`payment_method.card_number`, `input.paymentMethod.cardNumber`).
 */
export type Path = readonly (string | number)[];

/** A field named by itself in a message ("at least one of tenantId, unitId or ledgerId"). */
export interface FieldName {
  readonly field: string;
}

/**
 * A message that may name fields: literal text, paths (spelled in full) and field names (spelled
 * alone). Transports render it with their own spelling; nothing in it is a transport's name.
 */
export type Text = readonly (string | Path | FieldName)[];

/** How a transport writes a path and a bare field name. */
export interface Spelling {
  path(path: Path): string;
  field(name: string): string;
}

export interface Problem {
  readonly path: Path;
  readonly message: Text;
}

/** A problem as a transport shows it: the parameter spelled, the message rendered. */
export interface ParameterProblem {
  parameter: string;
  message: string;
}

export function field(name: string): FieldName {
  return { field: name };
}

/** The text with its paths and fields spelled. */
export function renderText(text: Text | string, spelling: Spelling): string {
  if (typeof text === 'string') return text;
  let out = '';
  for (const part of text) {
    if (typeof part === 'string') out += part;
    else if (Array.isArray(part)) out += spelling.path(part);
    else out += spelling.field((part as FieldName).field);
  }
  return out;
}

export function renderProblems(problems: readonly Problem[], spelling: Spelling): ParameterProblem[] {
  return problems.map((p) => ({
    parameter: spelling.path(p.path),
    message: renderText(p.message, spelling),
  }));
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The spelling of the error's own `message`, which only logs show: each field in snake_case,
 * dotted, as the contract names its parameters. Transports render the text with their own.
 */
export const LOG_SPELLING: Spelling = {
  path: (path) =>
    path.reduce<string>((name, part) => {
      if (typeof part === 'number') return `${name}[${part}]`;
      return name ? `${name}.${snake(part)}` : snake(part);
    }, ''),
  field: snake,
};

/** What a text holding U+0000 is told, wherever it came in (the edge, OAuth headers, GraphQL). */
export const NUL_MESSAGE = 'must not contain a NUL character (U+0000)';

/** A failure the caller caused or can act on; never carries internals. */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly problems: readonly Problem[];
  /** The whole failure in a sentence, naming the fields at fault. */
  readonly text: Text;
  /** Seconds to wait, for rate_limited. */
  readonly retryAfter?: number;

  constructor(
    kind: DomainErrorKind,
    text: Text | string,
    options: { problems?: readonly Problem[]; retryAfter?: number } = {},
  ) {
    const parts: Text = typeof text === 'string' ? [text] : text;
    super(renderText(parts, LOG_SPELLING));
    this.name = 'DomainError';
    this.kind = kind;
    this.text = parts;
    this.problems = options.problems ?? [];
    this.retryAfter = options.retryAfter;
  }

  /** A validation failure of one or more parameters: "a must be x; b must be y". */
  static invalid(problems: readonly Problem[]): DomainError {
    return new DomainError('invalid_parameter', summaryOf(problems), { problems });
  }

  static invalidParameter(path: Path | string, message: Text | string): DomainError {
    return DomainError.invalid([problem(path, message)]);
  }

  static notFound(path: Path | string, what: string, id: string): DomainError {
    const at = toPath(path);
    // The id is the caller's: a card number given as one is shown as a receipt shows it.
    return new DomainError('not_found', [at, `: no ${what} ${truncate(maskCardNumbers(id), 64)}`], {
      problems: [problem(at, `no ${what} with this id`)],
    });
  }

  /** Parameters that contradict each other (400/5). */
  static conflicting(problems: readonly Problem[]): DomainError {
    return new DomainError('conflicting_parameters', summaryOf(problems), { problems });
  }

  /** The action could not be done (400/3), at one parameter: "path: message". */
  static actionFailed(path: Path | string, message: Text | string): DomainError {
    const at = toPath(path);
    return new DomainError('action_failed', [at, ': ', ...asText(message)], {
      problems: [problem(at, message)],
    });
  }
}

export function problem(path: Path | string, message: Text | string): Problem {
  return { path: toPath(path), message: asText(message) };
}

/** "a must be x; b must be y": each problem's path, then its message. */
export function summaryOf(problems: readonly Problem[]): Text {
  return problems.flatMap((p, i) => [...(i > 0 ? ['; '] : []), p.path, ' ', ...p.message]);
}

function toPath(path: Path | string): Path {
  return typeof path === 'string' ? [path] : path;
}

function asText(message: Text | string): Text {
  return typeof message === 'string' ? [message] : message;
}

export function truncate(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}...`;
}
