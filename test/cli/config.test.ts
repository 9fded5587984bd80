import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, SETTINGS } from '../../src/config';
import { settingsOf } from '../../src/settings';
import { configProblems, runCommand } from './cli-support';

const operations = fs.readFileSync(path.resolve(__dirname, '../../docs/operations.md'), 'utf8');

describe('the settings, declared once', () => {
  const settings = settingsOf(SETTINGS);

  it('each have a line in the docs and a line of `facility-ops config`, in the order they are checked', async () => {
    const { code, out } = await runCommand(['config'], { NODE_ENV: 'test' });
    expect(code).toBe(0);
    const names = out.split('\n').map((line) => line.split(' ')[0]);
    expect(names).toEqual(settings.map((setting) => setting.name));
    expect(new Set(names).size).toBe(names.length);
    for (const { name } of settings) expect(operations).toContain(`| \`${name}\` `);
  });

  it('are read as declared: the default, or the value given', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).rateLimitPerMinute).toBe(1200);
    expect(loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '7' }).rateLimitPerMinute).toBe(7);
    expect(loadConfig({ NODE_ENV: 'test', PAGE_CACHE_MB: '2' }).pageCacheBytes).toBe(2 * 1024 * 1024);
    expect(configProblems({ RATE_LIMIT_PER_MINUTE: '-1' })).toEqual([
      'RATE_LIMIT_PER_MINUTE: expected a whole number from 0 to 1000000, got "-1"',
    ]);
  });
});

describe('facility-ops config', () => {
  it('prints each value, set or defaulted, with secrets and URL passwords masked', async () => {
    const { code, out } = await runCommand(['config'], {
      NODE_ENV: 'test',
      PORT: '4000',
      DATABASE_URL: 'postgres://ops:hunter2@db.example.com/ops',
      SMS_WEBHOOK_TOKEN: 'token-hunter2',
      STRIPE_SECRET_KEY: 'sk_test_hunter2',
      PAYMENT_PROCESSOR: 'stripe',
    });
    expect(code).toBe(0);
    expect(out).not.toContain('hunter2');
    const line = (name: string) =>
      out
        .split('\n')
        .find((l) => l.startsWith(`${name} `))!
        .split(/\s{2,}/);
    expect(line('PORT')).toEqual(['PORT', '4000', 'set']);
    expect(line('PUBLIC_BASE_URL')).toEqual(['PUBLIC_BASE_URL', 'http://127.0.0.1:4000', 'default']);
    expect(line('DATABASE_URL')).toEqual(['DATABASE_URL', 'postgres://ops:***@db.example.com/ops', 'set']);
    expect(line('SMS_WEBHOOK_TOKEN')).toEqual(['SMS_WEBHOOK_TOKEN', '********', 'set']);
    expect(line('STRIPE_SECRET_KEY')).toEqual(['STRIPE_SECRET_KEY', '********', 'set']);
    expect(line('SMTP_URL')).toEqual(['SMTP_URL', '-', 'default']);
    // Gateway mode's limits are not read without UPSTREAM_URL.
    expect(line('UPSTREAM_TIMEOUT_MS')).toEqual(['UPSTREAM_TIMEOUT_MS', '-', 'unused']);
  });

  it('refuses a bad setting as the start does, in one line naming it', async () => {
    const { code, err } = await runCommand(['config'], { NODE_ENV: 'test', OUTBOX_WORKER: 'maybe' });
    expect(code).toBe(2);
    expect(err.split('\n')).toEqual([
      'facility-ops: invalid configuration:',
      '  OUTBOX_WORKER: expected true or false, got "maybe"',
    ]);
  });
});
