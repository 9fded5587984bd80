import { ConfigError, loadConfig } from '../../../src/config';
import { normalizeEmail, normalizePhone } from '../../../src/areas/esign/esign.recipients';
import { parseOutboxContent } from '../../../src/areas/outbox/outbox.service';
import { backoffMs } from '../../../src/areas/outbox/outbox.worker';
import { messageIdDomain, messageIdFor } from '../../../src/adapters/email/smtp.transport';

describe('email addresses', () => {
  it.each<[string, string]>([
    ['ada@example.com', 'ada@example.com'],
    ['  Ada.Lovelace@Example.COM ', 'Ada.Lovelace@example.com'],
    ["o'brien+esign@mail.example.co.uk", "o'brien+esign@mail.example.co.uk"],
    ['x@xn--bcher-kva.example', 'x@xn--bcher-kva.example'],
  ])('accepts %s as %s', (given, expected) => {
    expect(normalizeEmail(given)).toBe(expected);
  });

  it.each([
    '',
    'ada',
    '@example.com',
    'ada@',
    'ada@example',
    'ada@example.c',
    'ada@-example.com',
    'ada@exa_mple.com',
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    '"ada"@example.com',
    'Ada <ada@example.com>',
    'ada@example.com\nBcc: eve@example.com',
    'ädä@example.com',
    `${'a'.repeat(65)}@example.com`,
    `ada@${'a'.repeat(250)}.com`,
  ])('refuses %j', (given) => {
    expect(normalizeEmail(given)).toBeNull();
  });
});

describe('phone numbers', () => {
  it.each<[string, string]>([
    ['+15555550100', '+15555550100'],
    ['5555550100', '+15555550100'],
    ['(555) 555-0100', '+15555550100'],
    ['555.555.0100', '+15555550100'],
    ['1 555 555 0100', '+15555550100'],
    ['+1 (555) 555-0100', '+15555550100'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+49 30 901820', '+4930901820'],
    ['+61 2 9374 4000', '+61293744000'],
  ])('reads %s as %s', (given, expected) => {
    expect(normalizePhone(given)).toBe(expected);
  });

  it.each([
    '',
    '+',
    '555-0100',
    '155555501000',
    '+1555555010',
    '+1 055 555 0100',
    '+1 555 155 0100',
    '1555155010',
    '+0 555 555 0100',
    '+1234567',
    '+1234567890123456',
    '(555 555-0100',
    '555-555-0100 ext 2',
    'tel:+15555550100',
    '+1-555-555-0100; drop table x',
    '5'.repeat(40),
  ])('refuses %j', (given) => {
    expect(normalizePhone(given)).toBeNull();
  });
});

describe('retry backoff', () => {
  const settings = { backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 };
  it('doubles after each failed attempt up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => backoffMs(n, settings))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe('Message-IDs', () => {
  it('are the message id at the domain of the From address', () => {
    expect(messageIdDomain('Main Street <Desk@Main-Street.example>')).toBe('main-street.example');
    expect(messageIdDomain('desk@example.com')).toBe('example.com');
    expect(messageIdDomain('no address here')).toBe('localhost');
    expect(messageIdFor('3f2c', 'desk@example.com')).toBe('<3f2c.outbox@example.com>');
  });
});

describe('stored message content', () => {
  it('reads back only what the outbox wrote', () => {
    const content = {
      kind: 'esign_documents',
      facility: { id: 'f', name: 'Main Street' },
      eventId: 'e',
      documents: [{ id: 'd', description: 'Lease', url: 'http://x/d' }],
      subject: 's',
      text: 't',
      html: null,
    };
    expect(parseOutboxContent(JSON.stringify(content))).toEqual(content);
    expect(parseOutboxContent('not json')).toBeNull();
    expect(parseOutboxContent(JSON.stringify({ ...content, kind: 'other' }))).toBeNull();
    expect(parseOutboxContent(JSON.stringify({ ...content, documents: [{ id: 1 }] }))).toBeNull();
  });
});

describe('outbox configuration', () => {
  it('has working defaults: no transports, worker on, links to the local address', () => {
    const config = loadConfig({ NODE_ENV: 'test', HOST: '0.0.0.0', PORT: '8080' });
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(config.outbox).toMatchObject({
      workerEnabled: true,
      smtpUrl: null,
      smsWebhookUrl: null,
      smtpFrom: 'Facility Ops <no-reply@localhost>',
      maxAttempts: 8,
      sendTimeoutMs: 30_000,
      leaseMs: 300_000,
    });
  });

  it('reads the transports and drops a trailing slash of PUBLIC_BASE_URL', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      SMS_WEBHOOK_URL: 'https://sms.example.com/v1/messages',
      SMS_WEBHOOK_TOKEN: 'token',
      PUBLIC_BASE_URL: 'https://ops.example.com/',
    });
    expect(config.publicBaseUrl).toBe('https://ops.example.com');
    expect(config.outbox).toMatchObject({
      smtpUrl: 'smtps://user:secret@mail.example.com:465',
      smsWebhookUrl: 'https://sms.example.com/v1/messages',
      smsWebhookToken: 'token',
    });
  });

  it('lists every bad setting at once, without the SMTP password', () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: 'test',
        SMTP_URL: 'http://user:secret@mail.example.com',
        SMS_WEBHOOK_URL: 'ftp://sms.example.com',
        PUBLIC_BASE_URL: 'ops.example.com',
        OUTBOX_MAX_ATTEMPTS: '0',
        OUTBOX_SEND_TIMEOUT_MS: '60000',
        OUTBOX_LEASE_MS: '60000',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PUBLIC_BASE_URL',
      'OUTBOX_LEASE_MS',
      'SMTP_URL',
      'SMS_WEBHOOK_URL',
      'OUTBOX_MAX_ATTEMPTS',
    ]);
    expect(problems.join('\n')).not.toContain('secret');
  });
});
