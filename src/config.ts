/** Service configuration, parsed once from the environment at start-up. */
export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimit: number;
  /** Seconds an OAuth timestamp may differ from the server clock. */
  readonly oauthWindowSeconds: number;
  /** Requests per client per minute; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  readonly redisUrl: string | null;
  readonly graphqlIntrospection: boolean;
  readonly trustProxy: boolean;
  /** Where callers reach the service; links in outgoing messages start with it. */
  readonly publicBaseUrl: string;
  /** Memory for serialized list pages kept between requests, in bytes; 0 turns the cache off. */
  readonly pageCacheBytes: number;
  readonly outbox: OutboxConfig;
}

/** E-sign delivery: the transports and the outbox worker's pace. */
export interface OutboxConfig {
  /** Whether this process runs a delivery worker (any number of instances may). */
  readonly workerEnabled: boolean;
  readonly smtpUrl: string | null;
  readonly smtpFrom: string;
  readonly smsWebhookUrl: string | null;
  readonly smsWebhookToken: string | null;
  /** SMTP connect, greeting and socket timeouts, and the SMS request timeout. */
  readonly sendTimeoutMs: number;
  readonly batchSize: number;
  readonly maxAttempts: number;
  readonly leaseMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly pollIntervalMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads every setting, collecting all problems before failing. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name}: expected a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name}: expected true or false, got "${raw}"`);
    return fallback;
  };

  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  let nodeEnv: Config['nodeEnv'] = 'development';
  if (nodeEnvRaw === 'development' || nodeEnvRaw === 'production' || nodeEnvRaw === 'test') {
    nodeEnv = nodeEnvRaw;
  } else {
    problems.push(`NODE_ENV: expected development, production or test, got "${nodeEnvRaw}"`);
  }

  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/facility-ops.db';
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL: expected sqlite:<path> or postgres://..., got "${redactUrl(databaseUrl)}"`);
  }

  const logLevel = env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const redisUrl = env.REDIS_URL || null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL: expected redis://..., got "${redactUrl(redisUrl)}"`);
  }

  const url = (name: string, schemes: string[]): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    let scheme = '';
    try {
      scheme = new URL(raw).protocol.replace(/:$/, '');
    } catch {
      scheme = '';
    }
    if (!schemes.includes(scheme)) {
      problems.push(`${name}: expected a ${schemes.join(':// or ')}:// URL, got "${redactUrl(raw)}"`);
      return null;
    }
    return raw;
  };

  const host = env.HOST || '127.0.0.1';
  const port = int('PORT', 3000, 0, 65535);
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const hostPart = localHost.includes(':') ? `[${localHost}]` : localHost;
  const publicBaseUrl = url('PUBLIC_BASE_URL', ['http', 'https']) ?? `http://${hostPart}:${port}`;
  const sendTimeoutMs = int('OUTBOX_SEND_TIMEOUT_MS', 30_000, 100, 600_000);
  const leaseMs = int('OUTBOX_LEASE_MS', 5 * 60_000, 1_000, 24 * 3_600_000);
  // A claim must outlast the longest send (connect, greeting and data phases), or two workers meet.
  if (leaseMs <= sendTimeoutMs * 3) {
    problems.push(`OUTBOX_LEASE_MS: must be more than 3 x OUTBOX_SEND_TIMEOUT_MS (${sendTimeoutMs * 3})`);
  }
  const outbox: OutboxConfig = Object.freeze({
    workerEnabled: bool('OUTBOX_WORKER', true),
    smtpUrl: url('SMTP_URL', ['smtp', 'smtps']),
    smtpFrom: env.SMTP_FROM || 'Facility Ops <no-reply@localhost>',
    smsWebhookUrl: url('SMS_WEBHOOK_URL', ['http', 'https']),
    smsWebhookToken: env.SMS_WEBHOOK_TOKEN || null,
    sendTimeoutMs,
    batchSize: int('OUTBOX_BATCH_SIZE', 10, 1, 500),
    maxAttempts: int('OUTBOX_MAX_ATTEMPTS', 8, 1, 100),
    leaseMs,
    backoffBaseMs: int('OUTBOX_BACKOFF_MS', 30_000, 1, 24 * 3_600_000),
    backoffMaxMs: int('OUTBOX_BACKOFF_MAX_MS', 3_600_000, 1, 7 * 24 * 3_600_000),
    pollIntervalMs: int('OUTBOX_POLL_MS', 1_000, 10, 3_600_000),
  });

  const config: Config = {
    nodeEnv,
    databaseUrl,
    host,
    port,
    logLevel,
    bodyLimit: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    oauthWindowSeconds: int('OAUTH_WINDOW_SECONDS', 300, 1, 3600),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000),
    redisUrl,
    graphqlIntrospection: bool('GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    trustProxy: bool('TRUST_PROXY', false),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    pageCacheBytes: int('PAGE_CACHE_MB', 64, 0, 64 * 1024) * 1024 * 1024,
    outbox,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** A URL with its password replaced, safe to print. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
