import fs from 'node:fs';
import path from 'node:path';
import { GraphQLError } from 'graphql';
import { DOMAIN_ERROR_KINDS, DomainError, problem, type DomainErrorKind } from '../../src/kernel/errors';
import { answerOf } from '../../src/edge/error-table';
import {
  clipMessage,
  domainErrorExtensions,
  exposedCode,
  formatGraphqlError,
} from '../../src/graphql/errors';

const graphqlCodeOf = (kind: DomainErrorKind) => answerOf(kind).graphqlCode;
const restStatusOf = (kind: DomainErrorKind) => answerOf(kind);

/** What graphql-js and Apollo hand formatError for an error thrown in a resolver. */
function resolverError(cause: Error): GraphQLError {
  return new GraphQLError(cause.message, { path: ['facility'], originalError: cause });
}

describe('GraphQL error mapping', () => {
  it('maps every DomainError kind to a code and the REST error_code', () => {
    const table = DOMAIN_ERROR_KINDS.map((kind) => [kind, graphqlCodeOf(kind), restStatusOf(kind).errorCode]);
    expect(table).toEqual([
      ['action_failed', 'ACTION_FAILED', 3],
      ['invalid_parameter', 'BAD_USER_INPUT', 4],
      ['conflicting_parameters', 'CONFLICT', 5],
      ['disabled_for_tenants', 'DISABLED_FOR_TENANTS', 7],
      ['unauthenticated', 'UNAUTHENTICATED', 2],
      ['forbidden', 'FORBIDDEN', 13],
      ['not_found', 'NOT_FOUND', 9],
      ['gone', 'GONE', null],
      ['rate_limited', 'RATE_LIMITED', null],
      ['upstream_unavailable', 'UPSTREAM_UNAVAILABLE', null],
      ['upstream_timeout', 'UPSTREAM_UNAVAILABLE', null],
    ]);
  });

  it.each(DOMAIN_ERROR_KINDS)('documents the code of %s in the README errors table', (kind) => {
    const readme = fs.readFileSync(path.join(__dirname, '../../docs/rest.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${kind}\``));
    expect(row).toContain(`| \`${graphqlCodeOf(kind)}\``);
  });

  it.each(DOMAIN_ERROR_KINDS)('formats a %s DomainError thrown by a resolver', (kind) => {
    const error = new DomainError(kind, `something ${kind}`, {
      problems: [problem(['start_date'], 'is not a date')],
    });
    const formatted = formatGraphqlError(
      { message: error.message, path: ['facility'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      resolverError(error),
    );
    expect(formatted).toEqual({
      message: `something ${kind}`,
      path: ['facility'],
      locations: undefined,
      extensions: {
        code: graphqlCodeOf(kind),
        errorCode: restStatusOf(kind).errorCode,
        parameter: 'start_date',
        problems: [{ parameter: 'start_date', message: 'is not a date' }],
      },
    });
  });

  it('names the parameter of an invalid-parameter error, and the wait of a rate limit', () => {
    expect(domainErrorExtensions(DomainError.invalidParameter('per_page', 'must be at least 1'))).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 4,
      parameter: 'per_page',
      problems: [{ parameter: 'per_page', message: 'must be at least 1' }],
    });
    const limited = new DomainError('rate_limited', 'slow down', { retryAfter: 12 });
    expect(domainErrorExtensions(limited)).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 12 });
  });

  it.each([
    ['a plain Error', resolverError(new Error('connect ECONNREFUSED 10.0.0.5:5432'))],
    [
      'a GraphQLError without a code',
      new GraphQLError('Cannot return null for non-nullable field Facility.name.'),
    ],
    ['an unknown code', new GraphQLError('boom', { extensions: { code: 'SOMETHING_ELSE' } })],
    ['a non-error', 'a string thrown'],
  ])('masks %s to a fixed message', (_label, error) => {
    const formatted = formatGraphqlError(
      {
        message: 'secret detail',
        path: ['facility', 'name'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['x'] },
      },
      error,
    );
    expect(formatted).toEqual({
      message: 'Internal server error',
      path: ['facility', 'name'],
      locations: undefined,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(exposedCode(error)).toBeNull();
  });

  it('keeps client mistakes as graphql-js and Apollo word them', () => {
    const parse = new GraphQLError('Syntax Error: Unexpected "}".', {
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    expect(
      formatGraphqlError({ message: parse.message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }, parse),
    ).toEqual({
      message: 'Syntax Error: Unexpected "}".',
      locations: undefined,
      path: undefined,
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    const badHash = new GraphQLError('provided sha does not match query', {
      extensions: { http: { status: 400 } },
    });
    expect(exposedCode(badHash)).toBe('BAD_REQUEST');
  });

  it('clips echoed input in messages', () => {
    const message = `Variable "$id" got invalid value "${'x'.repeat(5000)}"; Value is not a valid UUID`;
    expect(clipMessage(message)).toBe(
      `Variable "$id" got invalid value "${'x'.repeat(47)}..."; Value is not a valid UUID`,
    );
    expect(clipMessage('word '.repeat(1000))).toHaveLength(1003);
    expect(clipMessage('short message')).toBe('short message');
  });
});
