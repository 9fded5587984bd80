import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, renderProblems, renderText, type ParameterProblem } from '../kernel/errors';
import { answerOf, INTERNAL_ERROR_MESSAGE } from '../edge/error-table';
import { errorEnvelope, type ErrorBody } from './envelope';
import { FORBIDDEN_JSON_KEY } from './json-text';
import { REST_SPELLING, restSpelling } from './spelling';

/** The spelling of the route's parameters: its `names` option and the request's own, else snake_case. */
function spellingOf(request: FastifyRequest) {
  const names = request.routeOptions.config?.names;
  if (request.restNames) return restSpelling({ ...names, ...request.restNames });
  return names ? restSpelling(names) : REST_SPELLING;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function parameterName(context: string | undefined, instancePath: string, missing?: unknown): string {
  const parts = instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof missing === 'string') parts.push(missing);
  const name = parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    '',
  );
  return name || (context === 'body' ? 'body' : (context ?? 'request'));
}

function ajvProblem(context: string | undefined, error: AjvError): ParameterProblem {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return {
        parameter: parameterName(context, error.instancePath, p.missingProperty),
        message: 'is required',
      };
    case 'type':
      return {
        parameter: parameterName(context, error.instancePath),
        message: `must be ${article(String(p.type))}`,
      };
    case 'maxLength':
      return {
        parameter: parameterName(context, error.instancePath),
        message: `must be at most ${p.limit} characters`,
      };
    case 'minLength':
      return {
        parameter: parameterName(context, error.instancePath),
        message: p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters`,
      };
    case 'enum':
      return {
        parameter: parameterName(context, error.instancePath),
        message: `must be one of ${(p.allowedValues as unknown[]).join(', ')}`,
      };
    case 'maxItems':
      return {
        parameter: parameterName(context, error.instancePath),
        message: `must have at most ${p.limit} entries`,
      };
    case 'minItems':
      return {
        parameter: parameterName(context, error.instancePath),
        message: `must have at least ${p.limit} entries`,
      };
    default:
      return {
        parameter: parameterName(context, error.instancePath),
        message: error.message ?? 'is invalid',
      };
  }
}

function article(type: string): string {
  const name = type.replace(',', ' or ');
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** Turns anything thrown during a request into the contract's envelope; unknown errors become 500/1. */
export function toErrorBody(error: unknown, request: FastifyRequest): ErrorBody {
  if (error instanceof DomainError) {
    const { status, errorCode } = answerOf(error.kind);
    const spelling = spellingOf(request);
    return {
      status,
      errorCode,
      message: renderText(error.text, spelling),
      problems: renderProblems(error.problems, spelling),
    };
  }
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const problems = fastifyError.validation.map((e) => ajvProblem(fastifyError.validationContext, e));
    const unique = problems.filter(
      (p, i) => problems.findIndex((q) => q.parameter === p.parameter && q.message === p.message) === i,
    );
    return {
      status: 400,
      errorCode: 4,
      message: unique.map((p) => `${p.parameter} ${p.message}`).join('; '),
      problems: unique,
    };
  }
  if ((fastifyError as { [FORBIDDEN_JSON_KEY]?: true })[FORBIDDEN_JSON_KEY]) {
    const refused = 'must not hold a "__proto__" or "constructor.prototype" key';
    return {
      status: 400,
      errorCode: 4,
      message: `body ${refused}`,
      problems: [{ parameter: 'body', message: refused }],
    };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        errorCode: null,
        message: `request body is larger than ${request.routeOptions.bodyLimit ?? 'the limit'} bytes`,
        problems: [],
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        errorCode: 4,
        message: 'body must be application/json or application/x-www-form-urlencoded',
        problems: [{ parameter: 'Content-Type', message: 'is not supported' }],
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 400,
        errorCode: 4,
        message: `body is not valid JSON`,
        problems: [{ parameter: 'body', message: 'is not valid JSON' }],
      };
  }
  const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) {
    return {
      status,
      errorCode: status === 400 ? 4 : null,
      message: fastifyError.message,
      problems: [],
    };
  }
  return { status: 500, errorCode: 1, message: INTERNAL_ERROR_MESSAGE, problems: [] };
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = toErrorBody(error, request);
  if (body.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  }
  if (error instanceof DomainError && error.retryAfter !== undefined) {
    reply.header('Retry-After', String(error.retryAfter));
  }
  return reply.code(body.status).type('application/json; charset=utf-8').send(errorEnvelope(request, body));
}
