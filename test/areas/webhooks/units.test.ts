import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig } from '../../../src/config';
import { parseOutboxWebhook } from '../../../src/areas/outbox/outbox.service';
import { isPublicAddress } from '../../../src/areas/webhooks/webhooks.addresses';
import {
  RETRY_JITTER,
  WEBHOOK_RETRY_SCHEDULE_MS,
  webhookRetryDelayMs,
} from '../../../src/areas/webhooks/webhooks.dispatcher';
import {
  newWebhookSecret,
  webhookHeaders,
  webhookSignature,
} from '../../../src/areas/webhooks/webhooks.signature';

describe('webhook signatures', () => {
  it('sign as the standardwebhooks library does, for any secret, id, time and body', () => {
    for (let i = 0; i < 20; i += 1) {
      const secret = newWebhookSecret();
      const id = `msg_${randomBytes(8).toString('hex')}`;
      const at = new Date(1_700_000_000_000 + i * 997_001);
      const body = JSON.stringify({ type: 'note.created', n: i, text: 'naïve “quotes” ✓' });
      const reference = new Webhook(secret).sign(id, at, body);
      expect(webhookSignature(secret, id, Math.floor(at.getTime() / 1000), body)).toBe(reference);
    }
  });

  it('carry one signature per secret, separated by spaces, and the attempt time in seconds', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date('2026-11-25T10:00:00.900Z');
    const headers = webhookHeaders('3f2b', at, '{}', [a, b]);
    expect(headers['webhook-id']).toBe('3f2b');
    expect(headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-25T10:00:00Z') / 1000));
    const [first, second] = headers['webhook-signature'].split(' ');
    expect(first).toBe(new Webhook(a).sign('3f2b', at, '{}'));
    expect(second).toBe(new Webhook(b).sign('3f2b', at, '{}'));
  });

  it('makes secrets of 32 random bytes in the whsec_ form', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('webhook destinations', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.0.10', false],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['0.0.0.0', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['2002:c0a8:101::1', false],
    ['localhost', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('webhook retries', () => {
  const jittered = (random: () => number) => ({
    retryDelayMs: (attempts: number) => webhookRetryDelayMs(attempts, random),
  });

  it('wait longer after each failure, moved by at most the jitter, for about a day, then give up', () => {
    const low = jittered(() => 0);
    const high = jittered(() => 0.999999);
    WEBHOOK_RETRY_SCHEDULE_MS.forEach((base, i) => {
      expect(low.retryDelayMs(i + 1)).toBe(Math.round(base * (1 - RETRY_JITTER)));
      expect(high.retryDelayMs(i + 1)).toBeLessThanOrEqual(Math.round(base * (1 + RETRY_JITTER)));
      if (i > 0) expect(base).toBeGreaterThanOrEqual(WEBHOOK_RETRY_SCHEDULE_MS[i - 1]);
    });
    expect(low.retryDelayMs(WEBHOOK_RETRY_SCHEDULE_MS.length + 1)).toBeNull();
    const total = WEBHOOK_RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(total / 3_600_000).toBeGreaterThan(24);
    expect(total / 3_600_000).toBeLessThan(30);
  });
});

describe('webhook settings', () => {
  it('reads WEBHOOK_ALLOW_HOSTS, the timeout and the other knobs', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      WEBHOOK_ALLOW_HOSTS: ' 127.0.0.1, Hooks.Internal ,[::1]',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_DISABLE_AFTER_HOURS: '72',
      WEBHOOK_ENDPOINT_CONCURRENCY: '3',
    });
    expect(config.webhooks).toEqual({
      allowHosts: ['127.0.0.1', 'hooks.internal', '::1'],
      timeoutMs: 5000,
      maxResponseBytes: 65536,
      disableAfterHours: 72,
      concurrency: 64,
      endpointConcurrency: 3,
      companyConcurrency: 16,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks).toMatchObject({
      allowHosts: [],
      timeoutMs: 15000,
      endpointConcurrency: 2,
      companyConcurrency: 16,
    });
  });

  it('reads WEBHOOK_COMPANY_CONCURRENCY (unset: a quarter of WEBHOOK_CONCURRENCY), never above WEBHOOK_CONCURRENCY', () => {
    const webhooks = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).webhooks;
    expect(webhooks({ WEBHOOK_CONCURRENCY: '8' })).toMatchObject({ concurrency: 8, companyConcurrency: 2 });
    expect(webhooks({ WEBHOOK_CONCURRENCY: '3' })).toMatchObject({ concurrency: 3, companyConcurrency: 1 });
    expect(webhooks({ WEBHOOK_CONCURRENCY: '8', WEBHOOK_COMPANY_CONCURRENCY: '8' })).toMatchObject({
      companyConcurrency: 8,
    });
    expect(webhooks({ WEBHOOK_COMPANY_CONCURRENCY: '40' })).toMatchObject({ companyConcurrency: 40 });
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig({ NODE_ENV: 'test', ...env });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ WEBHOOK_CONCURRENCY: '8', WEBHOOK_COMPANY_CONCURRENCY: '9' })).toEqual([
      'WEBHOOK_COMPANY_CONCURRENCY: must be at most WEBHOOK_CONCURRENCY (8), got 9',
    ]);
    expect(problems({ WEBHOOK_COMPANY_CONCURRENCY: '65' })).toEqual([
      'WEBHOOK_COMPANY_CONCURRENCY: must be at most WEBHOOK_CONCURRENCY (64), got 65',
    ]);
    expect(problems({ WEBHOOK_COMPANY_CONCURRENCY: '0' })).toEqual([
      'WEBHOOK_COMPANY_CONCURRENCY: expected a whole number from 1 to 1000, got "0"',
    ]);
  });

  it('refuses a bad host list, and a lease no longer than two webhook timeouts', () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: 'test',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1,https://x.example/',
        WEBHOOK_TIMEOUT_MS: '60000',
        OUTBOX_LEASE_MS: '100000',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'OUTBOX_LEASE_MS: must be more than 2 x WEBHOOK_TIMEOUT_MS (120000)',
      'WEBHOOK_ALLOW_HOSTS: expected host names or addresses separated by commas, got "https://x.example/"',
    ]);
  });
});

describe('stored webhook deliveries', () => {
  it('read back what was written, and nothing else', () => {
    const stored = { kind: 'webhook', type: 'note.created', body: '{"type":"note.created"}' };
    expect(parseOutboxWebhook(JSON.stringify(stored))).toEqual(stored);
    expect(parseOutboxWebhook('not json')).toBeNull();
    expect(parseOutboxWebhook(JSON.stringify({ ...stored, kind: 'esign_documents' }))).toBeNull();
    expect(parseOutboxWebhook(JSON.stringify({ ...stored, body: 1 }))).toBeNull();
  });
});
