import { configProblems, runCommand } from './cli-support';

describe('PAYMENT_PROCESSOR and the Stripe settings', () => {
  it.each([
    [{ PAYMENT_PROCESSOR: 'paypal' }, 'PAYMENT_PROCESSOR: expected test or stripe, got "paypal"'],
    [
      { PAYMENT_PROCESSOR: 'stripe' },
      'STRIPE_SECRET_KEY: required with PAYMENT_PROCESSOR=stripe (a secret key, sk_live_... or sk_test_...)',
    ],
    [
      { PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: 'ftp://fake' },
      'STRIPE_API_URL: expected a http:// or https:// URL, got "ftp://fake"',
    ],
  ])('refuses to serve with %j, in one line naming the setting', async (env, line) => {
    expect(configProblems(env)).toEqual([line]);
    const result = await runCommand(['serve'], { ...env, DATABASE_URL: 'sqlite::memory:', PORT: '0' });
    expect(result.code).toBe(2);
    expect(result.err.split('\n')).toEqual(['facility-ops: invalid configuration:', `  ${line}`]);
  });

  it('takes the test processor by default, and stripe with its key', () => {
    expect(configProblems({})).toEqual([]);
    expect(configProblems({ PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toEqual([]);
  });
});
