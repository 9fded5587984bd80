import { createTestApp } from '../support/http';
import { runCommand } from './cli-support';

/** A failure names the setting to look at, in one line, instead of a bare system error. */
describe('failures that name their setting', () => {
  it('an unreachable PostgreSQL names DATABASE_URL, its password hidden', async () => {
    const result = await runCommand(['migrate'], {
      DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/test',
    });
    expect(result.code).toBe(1);
    expect(result.err.split('\n')).toEqual([
      'facility-ops: DATABASE_URL: PostgreSQL at postgres://postgres:***@127.0.0.1:1/test does not answer (connect ECONNREFUSED 127.0.0.1:1): is it running, and is DATABASE_URL right?',
    ]);
  });

  it('an unreachable REDIS_URL is said at start with what fails open, and on /readyz', async () => {
    const logLines: string[] = [];
    const t = await createTestApp('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' }, logLines });
    try {
      const warnings = logLines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level === 40)
        .map((line) => line.msg);
      expect(warnings).toContain(
        'REDIS_URL (redis://127.0.0.1:1) does not answer: rate limits (RATE_LIMIT_PER_MINUTE, SIGNING_RATE_LIMIT_*) fail open, every request is let through, until it answers',
      );
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const body = ready.json() as { status: string; warnings: string[] };
      expect(body.status).toBe('ready');
      expect(body.warnings).toHaveLength(1);
      expect(body.warnings[0]).toMatch(
        /^REDIS_URL does not answer \(.+\): rate limits \(RATE_LIMIT_PER_MINUTE, SIGNING_RATE_LIMIT_\*\) fail open/,
      );
    } finally {
      await t.close();
    }
  });

  it('refused introspection names GRAPHQL_INTROSPECTION, not an option of the GraphQL server', async () => {
    const t = await createTestApp('sqlite', { env: { GRAPHQL_INTROSPECTION: 'false' } });
    try {
      const res = await t.postJson('/graphql', { query: '{ __schema { queryType { name } } }' });
      const body = res.json() as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].message).toBe(
        'GraphQL introspection is off on this service (GRAPHQL_INTROSPECTION, off by default in production): the query asks for __schema or __type; its operator can set GRAPHQL_INTROSPECTION=true',
      );
      expect(body.errors[0].message).not.toContain('ApolloServer');
      expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await t.close();
    }
  });
});
