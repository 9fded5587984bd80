import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import type { SealSettings } from './adapters/seal/document-seal';
import { SealingKeyProblem, sealingKeyFromP12, type SealingKey } from './adapters/seal/sealing-key';
import { parseSecretKey, secretBoxFor, SecretKeys } from './adapters/secrets/aes-gcm.secret-box';
import { SecretUnreadable, type SecretBox, type SecretPlace, type SecretStorage } from './kernel/secret-box';
/** Service configuration, parsed once from the environment at start-up. */
export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  /**
   * LOG_FORMAT: `json` (pino's lines), `pretty` (one readable line each), or `auto`: pretty in
   * development when standard output is a terminal, json otherwise (production, tests, a file).
   */
  readonly logFormat: 'json' | 'pretty' | 'auto';
  /** Largest request body accepted, in bytes. */
  readonly bodyLimit: number;
  /** Seconds an OAuth timestamp may differ from the server clock. */
  readonly oauthWindowSeconds: number;
  /** Requests per client per minute; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  readonly redisUrl: string | null;
  readonly graphqlIntrospection: boolean;
  /** TRUSTED_DOCUMENTS: which GraphQL documents are answered (docs/graphql.md#trusted-documents). */
  readonly trustedDocuments: TrustedDocumentsMode;
  /** GRAPHQL_MAX_COST: the largest estimated cost of an operation (docs/graphql.md#demand-control). */
  readonly graphqlMaxCost: number;
  readonly trustProxy: boolean;
  /** Where callers reach the service; links in outgoing messages start with it. */
  readonly publicBaseUrl: string;
  /** How long an e-sign message's signing link works, in hours. */
  readonly esignLinkTtlHours: number;
  /** Requests per minute the public signing pages take from one address and for one link; 0 turns either off. */
  readonly signingRateLimit: { readonly perAddress: number; readonly perToken: number };
  /**
   * The worker threads that decode drawn signatures off the event loop: how many (SIGNATURE_WORKERS),
   * how many drawings more may wait for one (SIGNATURE_QUEUE; beyond, the signing answers 503), and
   * how long a drawing may take, its wait included (SIGNATURE_DEADLINE_MS). The pool that stamps and
   * seals the signed PDFs has the same bounds, a document a job.
   */
  readonly signatureWorkers: { readonly size: number; readonly queue: number; readonly deadlineMs: number };
  /** Memory for serialized list pages kept between requests, in bytes; 0 turns the cache off. */
  readonly pageCacheBytes: number;
  readonly outbox: OutboxConfig;
  readonly webhooks: WebhooksConfig;
  /** How signed PDFs are sealed: the operator's certificate (checked here) or the installation's own. */
  readonly seal: SealSettings;
  /** Gateway mode: the deployment of the contract this instance stands in front of; null otherwise. */
  readonly upstream: UpstreamConfig | null;
  /** How stored secrets are kept: SECRETS_KEY, SECRETS_KEY_FILE, SECRETS_KEY_PREVIOUS. */
  readonly secrets: SecretsConfig;
  /** OpenTelemetry traces over OTLP/HTTP, from the standard OTEL_* variables; null when off. */
  readonly tracing: TracingConfig | null;
  /** GraphQL subscriptions (graphql-ws and SSE on /graphql). */
  readonly live: LiveConfig;
  /** Which processor charges cards (docs/payments.md#going-live). */
  readonly payments: PaymentsConfig;
}

/** PAYMENT_PROCESSOR: `test` moves no money; `stripe` charges through Stripe's PaymentIntents. */
export type PaymentProcessorName = 'test' | 'stripe';
export const PAYMENT_PROCESSORS: readonly PaymentProcessorName[] = ['test', 'stripe'];

/** The payment processor and its settings. */
export interface PaymentsConfig {
  readonly processor: PaymentProcessorName;
  /** STRIPE_SECRET_KEY: required with `stripe`; null otherwise. Never logged. */
  readonly stripeSecretKey: string | null;
  /** STRIPE_API_URL: the API's base URL, https://api.stripe.com unless set (a local fake in tests). */
  readonly stripeApiUrl: string;
  /** PAYMENT_PROCESSOR_TIMEOUT_MS: how long one call to the processor may take. */
  readonly timeoutMs: number;
  /**
   * FACILITY_OPS_TEST_HOLD_BEFORE_RECORD, read only under NODE_ENV=test: an approved charge waits
   * before its record (saying so on stderr), so a test can kill the process there.
   */
  readonly testHoldBeforeRecord: boolean;
}

/** GraphQL subscriptions: their limits, heartbeats and replay. */
export interface LiveConfig {
  /** Subscriptions one WebSocket connection may hold at once. */
  readonly perConnection: number;
  /** Subscriptions one client application may hold at once, over every connection of this instance. */
  readonly perClient: number;
  /** Open connections (WebSockets and SSE streams) one client application may hold on this instance. */
  readonly connectionsPerClient: number;
  /** Events one subscription may have waiting unread; one more drops it (slow consumer). */
  readonly queueLimit: number;
  /** Bytes a WebSocket may have waiting to be sent before the connection is dropped (slow consumer). */
  readonly socketBufferBytes: number;
  /** How often a WebSocket is pinged (and dropped if the last ping went unanswered), and SSE sends a comment. */
  readonly heartbeatMs: number;
  /** How far back `Last-Event-ID` and `since` reach, in minutes; older live events are deleted. */
  readonly replayWindowMinutes: number;
  /** Missed events one replay sends at most; more is "too old, re-query". */
  readonly replayLimit: number;
  /** SQLite: how often the journal is read besides after each commit of this process. */
  readonly pollMs: number;
  /** Gateway mode: how often each watched upstream resource is asked again (conditionally). */
  readonly upstreamPollMs: number;
}

/** Where traces go (docs/operations.md#tracing). */
export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces. */
  readonly tracesEndpoint: string;
  /** OTEL_SERVICE_NAME (default facility-ops). */
  readonly serviceName: string;
  /** OTEL_EXPORTER_OTLP_HEADERS (and _TRACES_HEADERS): `name=value` pairs, comma-separated. */
  readonly headers: Readonly<Record<string, string>>;
}

/** `off`: no document ids; `allow`: ids and free text; `require`: a client's known documents only. */
export type TrustedDocumentsMode = 'off' | 'allow' | 'require';
export const TRUSTED_DOCUMENTS_MODES: readonly TrustedDocumentsMode[] = ['off', 'allow', 'require'];

/** Secrets at rest (consumer secrets, webhook secrets): sealed under the operator's keys, or clear. */
export interface SecretsConfig {
  readonly storage: SecretStorage;
  /** The current key first, then the previous ones; null in clear storage. */
  readonly keys: SecretKeys | null;
}

/** The value of SECRETS_KEY by which an operator chooses clear storage in production. */
export const CLEAR_SECRETS_CHOICE = 'none-i-accept-clear-secrets';

/** One company's OAuth 1.0 consumer credentials at the upstream. */
export interface UpstreamCredentials {
  readonly consumerKey: string;
  readonly consumerSecret: string;
}

/** Gateway mode (`UPSTREAM_URL` set). */
export interface UpstreamConfig {
  /** The base URL of the upstream's /v1 (without a trailing slash), e.g. https://ops.example.com. */
  readonly url: string;
  /** Upstream credentials by company id (lower-case), from UPSTREAM_CREDENTIALS_FILE. */
  readonly credentialsByCompany: ReadonlyMap<string, UpstreamCredentials>;
  /** UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET: every company's, when set. */
  readonly defaultCredentials: UpstreamCredentials | null;
  /** How long one upstream call may take, connection included. */
  readonly timeoutMs: number;
  /** Connections kept open to the upstream at most (calls beyond wait their turn). */
  readonly maxConnections: number;
  /** The largest upstream answer taken, in bytes. */
  readonly maxAnswerBytes: number;
  /** Consecutive failed calls that open the circuit breaker. */
  readonly breakerFailures: number;
  /** How long an open breaker answers without calling the upstream. */
  readonly breakerCooldownMs: number;
  /**
   * How old a kept upstream answer may be and still be used without asking the upstream again
   * (beyond the freshness its Cache-Control gives); 0: every read is revalidated.
   */
  readonly maxStaleMs: number;
}

/** E-sign delivery: the transports and the outbox worker's pace. */
export interface OutboxConfig {
  /** Whether this process runs a delivery worker (any number of instances may). */
  readonly workerEnabled: boolean;
  readonly smtpUrl: string | null;
  readonly smtpFrom: string;
  /** SMTP_REPLY_TO: the Reply-To of every email; null when replies are not read. */
  readonly smtpReplyTo: string | null;
  readonly smsWebhookUrl: string | null;
  readonly smsWebhookToken: string | null;
  /** SMTP connect, greeting and socket timeouts, and the SMS request timeout. */
  readonly sendTimeoutMs: number;
  readonly batchSize: number;
  /** Email and SMS attempts in flight at once (a lane apart from webhooks). */
  readonly concurrency: number;
  readonly maxAttempts: number;
  readonly leaseMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly pollIntervalMs: number;
  /** How long stopping waits for attempts in flight before aborting them. */
  readonly stopGraceMs: number;
}

/** Webhook delivery (through the outbox worker). */
export interface WebhooksConfig {
  /**
   * Hosts (names or addresses, lower-case) an endpoint may name with plain http and reach at a
   * private or loopback address: WEBHOOK_ALLOW_HOSTS, comma-separated. Empty: https and public only.
   */
  readonly allowHosts: readonly string[];
  /** How long one delivery may take, connecting included, before it counts as failed. */
  readonly timeoutMs: number;
  /** How much of an endpoint's answer is read (the rest is dropped). */
  readonly maxResponseBytes: number;
  /** An endpoint whose deliveries fail (none succeeding) for this long is disabled. */
  readonly disableAfterHours: number;
  /** Webhook attempts in flight at once, per worker. */
  readonly concurrency: number;
  /** One endpoint's attempts in flight at once, across all workers. */
  readonly endpointConcurrency: number;
  /**
   * One company's attempts in flight at once (all its endpoints together), across all workers; at
   * most `concurrency`, a quarter of it by default.
   */
  readonly companyConcurrency: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads every setting, collecting all problems before failing. They are listed in the order read
 * (tests assert it): the process, its address, the outbox, the webhooks, sealing, secrets, gateway
 * mode, then the remaining limits.
 */
/** How a command uses the settings. */
export interface LoadOptions {
  /**
   * False for the commands that write only the local database (`clients`, `import`, `migrate`, ...):
   * they never call the upstream, so gateway mode's upstream credentials may be missing.
   */
  readonly upstreamCredentials?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const problems: string[] = [];
  const read = settingsReader(env, problems);
  const { nodeEnv, databaseUrl, logLevel, redisUrl } = processSettings(env, problems);
  const { host, port, publicBaseUrl } = addressSettings(env, read);
  const outbox = outboxConfig(env, read, problems);
  const webhooks = webhooksConfig(env, read, problems, outbox.leaseMs);
  const seal = sealSettings(env, problems, publicBaseUrl);
  const trustedDocuments = trustedDocumentsMode(env, problems);
  const secrets = secretsConfig(env, nodeEnv, problems);
  const upstream = upstreamConfig(
    env,
    problems,
    read.int,
    secretBoxFor(secrets),
    options.upstreamCredentials ?? true,
  );
  const tracing = tracingConfig(env, problems, read.bool);

  const config: Config = {
    nodeEnv,
    databaseUrl,
    host,
    port,
    logLevel,
    logFormat: logFormatSetting(env, problems),
    bodyLimit: read.int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    oauthWindowSeconds: read.int('OAUTH_WINDOW_SECONDS', 300, 1, 3600),
    rateLimitPerMinute: read.int('RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000),
    redisUrl,
    graphqlIntrospection: read.bool('GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    trustedDocuments,
    graphqlMaxCost: read.int('GRAPHQL_MAX_COST', 20_000, 1, 100_000_000),
    trustProxy: read.bool('TRUST_PROXY', false),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    esignLinkTtlHours: read.int('ESIGN_LINK_TTL_HOURS', 336, 1, 24 * 366),
    signingRateLimit: Object.freeze({
      perAddress: read.int('SIGNING_RATE_LIMIT_PER_ADDRESS', 120, 0, 1_000_000),
      perToken: read.int('SIGNING_RATE_LIMIT_PER_TOKEN', 30, 0, 1_000_000),
    }),
    signatureWorkers: Object.freeze({
      // One core is the event loop's: one worker on two cores, two from three on.
      size: read.int('SIGNATURE_WORKERS', Math.min(2, Math.max(1, availableParallelism() - 1)), 1, 16),
      queue: read.int('SIGNATURE_QUEUE', 8, 0, 1000),
      deadlineMs: read.int('SIGNATURE_DEADLINE_MS', 15_000, 100, 600_000),
    }),
    pageCacheBytes: read.int('PAGE_CACHE_MB', 64, 0, 64 * 1024) * 1024 * 1024,
    outbox,
    webhooks,
    seal,
    upstream,
    secrets,
    tracing,
    live: liveConfig(read),
    payments: paymentsConfig(env, nodeEnv, read, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Reads of one kind of setting: the value, or the fallback with a problem noted when it is bad. */
interface SettingsReader {
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
  /** Null when unset, or when not a URL of one of `schemes` (a problem then). */
  url(name: string, schemes: string[]): string | null;
}

function settingsReader(env: NodeJS.ProcessEnv, problems: string[]): SettingsReader {
  return {
    int(name, fallback, min, max) {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < min || value > max) {
        problems.push(`${name}: expected a whole number from ${min} to ${max}, got "${raw}"`);
        return fallback;
      }
      return value;
    },
    bool(name, fallback) {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
      if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
      problems.push(`${name}: expected true or false, got "${raw}"`);
      return fallback;
    },
    url(name, schemes) {
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
    },
  };
}

/** NODE_ENV, DATABASE_URL, LOG_LEVEL, FAST_PATHS and REDIS_URL. */
function logFormatSetting(env: NodeJS.ProcessEnv, problems: string[]): Config['logFormat'] {
  const raw = env.LOG_FORMAT;
  if (raw === undefined || raw === '') return 'auto';
  if (raw === 'json' || raw === 'pretty') return raw;
  problems.push(`LOG_FORMAT: expected json or pretty, got "${raw}"`);
  return 'auto';
}

function processSettings(
  env: NodeJS.ProcessEnv,
  problems: string[],
): Pick<Config, 'nodeEnv' | 'databaseUrl' | 'logLevel' | 'redisUrl'> {
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

  // Read by src/fast-paths when it loads; checked here so a wrong value stops the start.
  if (env.FAST_PATHS !== undefined && env.FAST_PATHS !== '' && !['on', 'off'].includes(env.FAST_PATHS)) {
    problems.push(`FAST_PATHS: expected on or off, got "${env.FAST_PATHS}"`);
  }

  const redisUrl = env.REDIS_URL || null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL: expected redis://..., got "${redactUrl(redisUrl)}"`);
  }
  return { nodeEnv, databaseUrl, logLevel, redisUrl };
}

/** HOST and PORT, and PUBLIC_BASE_URL (the local address when unset). */
function addressSettings(
  env: NodeJS.ProcessEnv,
  read: SettingsReader,
): Pick<Config, 'host' | 'port' | 'publicBaseUrl'> {
  const host = env.HOST || '127.0.0.1';
  const port = read.int('PORT', 3000, 0, 65535);
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const hostPart = localHost.includes(':') ? `[${localHost}]` : localHost;
  const publicBaseUrl = read.url('PUBLIC_BASE_URL', ['http', 'https']) ?? `http://${hostPart}:${port}`;
  return { host, port, publicBaseUrl };
}

function outboxConfig(env: NodeJS.ProcessEnv, read: SettingsReader, problems: string[]): OutboxConfig {
  const sendTimeoutMs = read.int('OUTBOX_SEND_TIMEOUT_MS', 30_000, 100, 600_000);
  const leaseMs = read.int('OUTBOX_LEASE_MS', 5 * 60_000, 1_000, 24 * 3_600_000);
  // A claim must outlast the longest send (connect, greeting and data phases), or two workers meet.
  if (leaseMs <= sendTimeoutMs * 3) {
    problems.push(`OUTBOX_LEASE_MS: must be more than 3 x OUTBOX_SEND_TIMEOUT_MS (${sendTimeoutMs * 3})`);
  }
  return Object.freeze({
    workerEnabled: read.bool('OUTBOX_WORKER', true),
    smtpUrl: read.url('SMTP_URL', ['smtp', 'smtps']),
    smtpFrom: env.SMTP_FROM || 'Facility Ops <no-reply@localhost>',
    smtpReplyTo: env.SMTP_REPLY_TO || null,
    smsWebhookUrl: read.url('SMS_WEBHOOK_URL', ['http', 'https']),
    smsWebhookToken: env.SMS_WEBHOOK_TOKEN || null,
    sendTimeoutMs,
    batchSize: read.int('OUTBOX_BATCH_SIZE', 10, 1, 500),
    concurrency: read.int('OUTBOX_CONCURRENCY', 10, 1, 1000),
    maxAttempts: read.int('OUTBOX_MAX_ATTEMPTS', 8, 1, 100),
    leaseMs,
    backoffBaseMs: read.int('OUTBOX_BACKOFF_MS', 30_000, 1, 24 * 3_600_000),
    backoffMaxMs: read.int('OUTBOX_BACKOFF_MAX_MS', 3_600_000, 1, 7 * 24 * 3_600_000),
    pollIntervalMs: read.int('OUTBOX_POLL_MS', 1_000, 10, 3_600_000),
    stopGraceMs: read.int('OUTBOX_STOP_GRACE_MS', 5_000, 0, 600_000),
  });
}

/** The WEBHOOK_ settings; a delivery must fit twice in the outbox's claim (`leaseMs`). */
function webhooksConfig(
  env: NodeJS.ProcessEnv,
  read: SettingsReader,
  problems: string[],
  leaseMs: number,
): WebhooksConfig {
  const timeoutMs = read.int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000);
  // A claim must outlast a delivery's request too, or a second worker sends it meanwhile.
  if (leaseMs <= timeoutMs * 2) {
    problems.push(`OUTBOX_LEASE_MS: must be more than 2 x WEBHOOK_TIMEOUT_MS (${timeoutMs * 2})`);
  }
  const concurrency = read.int('WEBHOOK_CONCURRENCY', 64, 1, 1000);
  // Unset: a quarter of the lane (16 of 64), so a company with every endpoint hanging leaves the
  // rest of an instance's slots to the others. Set: never more than the lane itself.
  const companyConcurrency = read.int(
    'WEBHOOK_COMPANY_CONCURRENCY',
    Math.max(1, Math.floor(concurrency / 4)),
    1,
    1000,
  );
  if (companyConcurrency > concurrency) {
    problems.push(
      `WEBHOOK_COMPANY_CONCURRENCY: must be at most WEBHOOK_CONCURRENCY (${concurrency}), got ${companyConcurrency}`,
    );
  }
  return Object.freeze({
    allowHosts: Object.freeze(readHostList(env.WEBHOOK_ALLOW_HOSTS, problems)),
    timeoutMs,
    maxResponseBytes: read.int('WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0, 16 * 1024 * 1024),
    disableAfterHours: read.int('WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 24 * 365),
    concurrency,
    endpointConcurrency: read.int('WEBHOOK_ENDPOINT_CONCURRENCY', 2, 1, 100),
    companyConcurrency,
  });
}

/** The operator's sealing certificate (SEAL_P12_FILE), or the passphrase of the installation's own. */
function sealSettings(env: NodeJS.ProcessEnv, problems: string[], publicBaseUrl: string): SealSettings {
  const seal: SealSettings = Object.freeze({
    operatorKey: operatorSealingKey(env, problems),
    keyPassphrase: env.SEAL_KEY_PASSPHRASE || null,
    commonName: `Facility Ops document seal (${hostOf(publicBaseUrl)})`,
  });
  if (seal.operatorKey && seal.keyPassphrase) {
    problems.push(
      "SEAL_KEY_PASSPHRASE: set only without SEAL_P12_FILE (it encrypts the installation's own sealing key)",
    );
  }
  return seal;
}

function liveConfig(read: SettingsReader): LiveConfig {
  return Object.freeze({
    perConnection: read.int('LIVE_SUBSCRIPTIONS_PER_CONNECTION', 20, 1, 1000),
    perClient: read.int('LIVE_SUBSCRIPTIONS_PER_CLIENT', 2000, 1, 1_000_000),
    connectionsPerClient: read.int('LIVE_CONNECTIONS_PER_CLIENT', 1000, 1, 1_000_000),
    queueLimit: read.int('LIVE_QUEUE_LIMIT', 256, 1, 100_000),
    socketBufferBytes: read.int('LIVE_SOCKET_BUFFER_KB', 1024, 16, 1024 * 1024) * 1024,
    heartbeatMs: read.int('LIVE_HEARTBEAT_MS', 15_000, 1_000, 600_000),
    replayWindowMinutes: read.int('LIVE_REPLAY_WINDOW_MINUTES', 60, 1, 7 * 24 * 60),
    replayLimit: read.int('LIVE_REPLAY_LIMIT', 1_000, 1, 100_000),
    pollMs: read.int('LIVE_POLL_MS', 500, 10, 60_000),
    upstreamPollMs: read.int('UPSTREAM_POLL_MS', 2_000, 100, 3_600_000),
  });
}

/**
 * PAYMENT_PROCESSOR and its settings. An unknown processor, or `stripe` without its key, refuses
 * the start naming the setting.
 */
function paymentsConfig(
  env: NodeJS.ProcessEnv,
  nodeEnv: Config['nodeEnv'],
  read: SettingsReader,
  problems: string[],
): PaymentsConfig {
  const raw = env.PAYMENT_PROCESSOR || 'test';
  const processor = PAYMENT_PROCESSORS.find((known) => known === raw);
  if (processor === undefined) problems.push(`PAYMENT_PROCESSOR: expected test or stripe, got "${raw}"`);
  const key = env.STRIPE_SECRET_KEY || null;
  if (processor === 'stripe' && key === null) {
    problems.push(
      'STRIPE_SECRET_KEY: required with PAYMENT_PROCESSOR=stripe (a secret key, sk_live_... or sk_test_...)',
    );
  }
  const apiUrl = read.url('STRIPE_API_URL', ['http', 'https']) ?? 'https://api.stripe.com';
  return Object.freeze({
    processor: processor ?? 'test',
    stripeSecretKey: processor === 'stripe' ? key : null,
    stripeApiUrl: apiUrl.replace(/\/+$/, ''),
    timeoutMs: read.int('PAYMENT_PROCESSOR_TIMEOUT_MS', 20_000, 100, 120_000),
    testHoldBeforeRecord: nodeEnv === 'test' && env.FACILITY_OPS_TEST_HOLD_BEFORE_RECORD === '1',
  });
}

function trustedDocumentsMode(env: NodeJS.ProcessEnv, problems: string[]): TrustedDocumentsMode {
  const raw = env.TRUSTED_DOCUMENTS || 'allow';
  const mode = TRUSTED_DOCUMENTS_MODES.find((known) => known === raw);
  if (mode === undefined) problems.push(`TRUSTED_DOCUMENTS: expected off, allow or require, got "${raw}"`);
  return mode ?? 'allow';
}

/**
 * The standard OpenTelemetry variables this service reads: tracing is on when an OTLP endpoint is
 * set and OTEL_SDK_DISABLED is not true. Only OTLP over HTTP with JSON is sent.
 */
function tracingConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
  bool: (name: string, fallback: boolean) => boolean,
): TracingConfig | null {
  const disabled = bool('OTEL_SDK_DISABLED', false);
  const endpointOf = (name: string): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return raw;
    } catch {
      // Reported below.
    }
    problems.push(`${name}: expected an http:// or https:// URL, got "${redactUrl(raw)}"`);
    return null;
  };
  const tracesOnly = endpointOf('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = endpointOf('OTEL_EXPORTER_OTLP_ENDPOINT');
  // The rest matters only where traces are to be sent (other programs may share the variables).
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null;
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const protocol = env[name];
    if (protocol && protocol !== 'http/json') {
      problems.push(`${name}: only http/json is sent (OTLP over HTTP with JSON), got "${protocol}"`);
    }
  }
  const traces = env.OTEL_TRACES_EXPORTER;
  if (traces && traces !== 'otlp' && traces !== 'none') {
    problems.push(`OTEL_TRACES_EXPORTER: expected otlp or none, got "${traces}"`);
  }
  const headers: Record<string, string> = {};
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const raw = env[name];
    if (!raw) continue;
    for (const pair of raw.split(',')) {
      const at = pair.indexOf('=');
      const key = at > 0 ? pair.slice(0, at).trim() : '';
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
        // The value may be a secret: only the name is shown.
        problems.push(
          `${name}: expected name=value pairs separated by commas, got a pair named "${key.slice(0, 40)}"`,
        );
        continue;
      }
      try {
        headers[key.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        problems.push(`${name}: the value of "${key}" is not URL-encoded text`);
      }
    }
  }
  const tracesEndpoint = tracesOnly ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : null);
  if (disabled || traces === 'none' || tracesEndpoint === null) return null;
  return Object.freeze({
    tracesEndpoint,
    serviceName: env.OTEL_SERVICE_NAME || 'facility-ops',
    headers: Object.freeze(headers),
  });
}

/**
 * SEAL_P12_FILE opened with SEAL_P12_PASSPHRASE, and checked: a key and its certificate, valid now,
 * for signing. Null without the file; problems name the setting, never the passphrase.
 */
function operatorSealingKey(env: NodeJS.ProcessEnv, problems: string[]): SealingKey | null {
  const file = env.SEAL_P12_FILE;
  const passphrase = env.SEAL_P12_PASSPHRASE ?? '';
  if (!file) {
    if (passphrase) problems.push('SEAL_P12_PASSPHRASE: set only with SEAL_P12_FILE');
    return null;
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    problems.push(
      `SEAL_P12_FILE: ${code === 'ENOENT' ? `no file ${file}` : `cannot read ${file} (${code})`}`,
    );
    return null;
  }
  try {
    const key = sealingKeyFromP12(bytes, passphrase);
    const problem = key.problemAt(new Date());
    if (problem) problems.push(`SEAL_P12_FILE: ${file}: ${problem}`);
    return problem ? null : key;
  } catch (error) {
    if (error instanceof SealingKeyProblem && error.wrongPassphrase) {
      problems.push(`SEAL_P12_PASSPHRASE: does not open ${file} (SEAL_P12_FILE)`);
    } else {
      // Node's own refusals (a certificate it cannot parse, say) say what they found, never the key.
      const reason =
        error instanceof SealingKeyProblem ? error.message : `it cannot be used (${String(error)})`;
      problems.push(`SEAL_P12_FILE: ${file}: ${reason}`);
    }
    return null;
  }
}

/** `WEBHOOK_ALLOW_HOSTS`: host names or IP addresses, comma-separated (IPv6 with or without brackets). */
function readHostList(raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const hosts: string[] = [];
  for (const entry of raw.split(',')) {
    const host = entry
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (host === '') continue;
    if (!/^[a-z0-9.:_-]+$/.test(host)) {
      problems.push(
        `WEBHOOK_ALLOW_HOSTS: expected host names or addresses separated by commas, got "${entry.trim()}"`,
      );
      continue;
    }
    hosts.push(host);
  }
  return hosts;
}

/**
 * SECRETS_KEY or SECRETS_KEY_FILE (one key per line: the current one first, then previous ones),
 * plus SECRETS_KEY_PREVIOUS (keys separated by commas or spaces). A problem names the setting and
 * what is wrong, never the value.
 */
function secretsConfig(
  env: NodeJS.ProcessEnv,
  nodeEnv: Config['nodeEnv'],
  problems: string[],
): SecretsConfig {
  const raw = env.SECRETS_KEY || undefined;
  const file = env.SECRETS_KEY_FILE || undefined;
  const previous = env.SECRETS_KEY_PREVIOUS?.trim() || undefined;
  if (raw && file) problems.push('SECRETS_KEY and SECRETS_KEY_FILE: set one, not both');
  if (raw === CLEAR_SECRETS_CHOICE) {
    if (previous)
      problems.push(`SECRETS_KEY_PREVIOUS: set only with a key, not with ${CLEAR_SECRETS_CHOICE}`);
    return { storage: 'clear-chosen', keys: null };
  }
  const keys: Buffer[] = [];
  const take = (name: string, text: string) => {
    const parsed = parseSecretKey(text);
    if (typeof parsed === 'string') problems.push(`${name}: ${parsed}`);
    else keys.push(parsed);
  };
  if (raw) take('SECRETS_KEY', raw);
  if (file && !raw) {
    const lines = readKeyFile(file, problems);
    if (lines?.length === 0) problems.push(`SECRETS_KEY_FILE: ${file} holds no key`);
    lines?.forEach((line, index) => take(`SECRETS_KEY_FILE: ${file} key ${index + 1}`, line));
  }
  if (previous) {
    if (!raw && !file) problems.push('SECRETS_KEY_PREVIOUS: set only with SECRETS_KEY or SECRETS_KEY_FILE');
    else
      previous.split(/[\s,]+/).forEach((text, index) => take(`SECRETS_KEY_PREVIOUS: key ${index + 1}`, text));
  }
  if (!raw && !file && nodeEnv === 'production') {
    problems.push(
      `SECRETS_KEY: production keeps stored secrets encrypted: set SECRETS_KEY or SECRETS_KEY_FILE (32 random bytes in base64: openssl rand -base64 32), or SECRETS_KEY=${CLEAR_SECRETS_CHOICE} to keep them in clear`,
    );
  }
  if (keys.length === 0 || problems.some((p) => p.startsWith('SECRETS_')))
    return { storage: 'clear', keys: null };
  return { storage: 'encrypted', keys: new SecretKeys(keys) };
}

/** The keys of a key file, one a line (blank lines and `#` comments skipped); null when unreadable. */
function readKeyFile(file: string, problems: string[]): string[] | null {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    problems.push(
      `SECRETS_KEY_FILE: ${code === 'ENOENT' ? `no file ${file}` : `cannot read ${file} (${code})`}`,
    );
    return null;
  }
}

/**
 * Where an upstream consumer secret lives, for the secret box: the company's entry of
 * UPSTREAM_CREDENTIALS_FILE, or (`null`) UPSTREAM_CONSUMER_SECRET.
 */
export function upstreamSecretPlace(companyId: string | null): SecretPlace {
  return {
    table: 'upstream_credentials',
    column: 'consumer_secret',
    rowId: companyId === null ? 'default' : companyId.toLowerCase(),
  };
}

/** An upstream secret as given, opened when sealed (`enc:v1:...`); null, with a problem, when it cannot be. */
function openUpstreamSecret(
  value: string,
  place: SecretPlace,
  setting: string,
  box: SecretBox,
  problems: string[],
): string | null {
  try {
    return box.open(value, place);
  } catch (error) {
    if (!(error instanceof SecretUnreadable)) throw error;
    problems.push(`${setting}: the consumer secret cannot be read (${error.reason})`);
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The gateway settings, problems collected with the rest; null without UPSTREAM_URL. */
function upstreamConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
  box: SecretBox,
  credentialsNeeded: boolean,
): UpstreamConfig | null {
  const raw = env.UPSTREAM_URL;
  const file = env.UPSTREAM_CREDENTIALS_FILE;
  const key = env.UPSTREAM_CONSUMER_KEY;
  const secret = env.UPSTREAM_CONSUMER_SECRET;
  if (raw === undefined || raw === '') {
    for (const [name, value] of [
      ['UPSTREAM_CREDENTIALS_FILE', file],
      ['UPSTREAM_CONSUMER_KEY', key],
      ['UPSTREAM_CONSUMER_SECRET', secret],
    ] as const) {
      if (value) problems.push(`${name}: set only in gateway mode, with UPSTREAM_URL`);
    }
    return null;
  }
  let url = '';
  try {
    const parsed = new URL(raw);
    if (!['http:', 'https:'].includes(parsed.protocol)) throw new Error('scheme');
    if (parsed.search || parsed.hash || parsed.username || parsed.password) throw new Error('extra');
    url = parsed.toString().replace(/\/+$/, '');
  } catch {
    problems.push(
      `UPSTREAM_URL: expected the http:// or https:// base URL of a /v1 deployment, without query, fragment or user, got "${redactUrl(raw)}"`,
    );
  }
  if (url.endsWith('/v1'))
    problems.push('UPSTREAM_URL: give the base URL, without /v1 (the gateway adds each path)');

  const credentialsByCompany = new Map<string, UpstreamCredentials>();
  if (file) readCredentialsFile(file, credentialsByCompany, problems, box);
  let defaultCredentials: UpstreamCredentials | null = null;
  if (key || secret) {
    if (!key || !secret) {
      problems.push('UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET: set both or neither');
    } else {
      const opened = openUpstreamSecret(
        secret,
        upstreamSecretPlace(null),
        'UPSTREAM_CONSUMER_SECRET',
        box,
        problems,
      );
      if (opened !== null) defaultCredentials = { consumerKey: key, consumerSecret: opened };
    }
  }
  if (credentialsNeeded && !file && !key && !secret) {
    problems.push(
      'UPSTREAM_URL: gateway mode needs upstream credentials: UPSTREAM_CREDENTIALS_FILE, or UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET',
    );
  }
  return {
    url,
    credentialsByCompany,
    defaultCredentials,
    timeoutMs: int('UPSTREAM_TIMEOUT_MS', 10_000, 100, 600_000),
    maxConnections: int('UPSTREAM_MAX_CONNECTIONS', 32, 1, 1024),
    maxAnswerBytes: int('UPSTREAM_MAX_ANSWER_MB', 32, 1, 1024) * 1024 * 1024,
    breakerFailures: int('UPSTREAM_BREAKER_FAILURES', 5, 1, 1000),
    breakerCooldownMs: int('UPSTREAM_BREAKER_COOLDOWN_MS', 10_000, 100, 3_600_000),
    maxStaleMs: int('UPSTREAM_MAX_STALE_MS', 0, 0, 86_400_000),
  };
}

/** `{ "<company id>": { "consumer_key": "...", "consumer_secret": "..." } }`; secrets never in a problem. */
function readCredentialsFile(
  file: string,
  into: Map<string, UpstreamCredentials>,
  problems: string[],
  box: SecretBox,
): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    problems.push(
      `UPSTREAM_CREDENTIALS_FILE: ${code === 'ENOENT' ? `no file ${file}` : code ? `cannot read ${file} (${code})` : `${file} is not JSON`}`,
    );
    return;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(
      'UPSTREAM_CREDENTIALS_FILE: expected a JSON object of company id to {consumer_key, consumer_secret}',
    );
    return;
  }
  for (const [companyId, value] of Object.entries(parsed)) {
    const entry = value as { consumer_key?: unknown; consumer_secret?: unknown } | null;
    if (!UUID.test(companyId)) {
      problems.push(`UPSTREAM_CREDENTIALS_FILE: "${companyId.slice(0, 60)}" is not a company id (a UUID)`);
    } else if (
      entry === null ||
      typeof entry !== 'object' ||
      typeof entry.consumer_key !== 'string' ||
      entry.consumer_key === '' ||
      typeof entry.consumer_secret !== 'string' ||
      entry.consumer_secret === ''
    ) {
      problems.push(
        `UPSTREAM_CREDENTIALS_FILE: ${companyId}: expected {"consumer_key": "...", "consumer_secret": "..."}`,
      );
    } else {
      const secret = openUpstreamSecret(
        entry.consumer_secret,
        upstreamSecretPlace(companyId),
        `UPSTREAM_CREDENTIALS_FILE: ${companyId}`,
        box,
        problems,
      );
      if (secret !== null)
        into.set(companyId.toLowerCase(), { consumerKey: entry.consumer_key, consumerSecret: secret });
    }
  }
}

/** The host (and port) of a URL; the URL itself when it has none. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A URL with its password replaced, safe to print. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
