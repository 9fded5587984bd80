import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import type { SealSettings } from './adapters/seal/document-seal';
import { SealingKeyProblem, sealingKeyFromP12, type SealingKey } from './adapters/seal/sealing-key';
import { parseSecretKey, secretBoxFor, SecretKeys } from './adapters/secrets/aes-gcm.secret-box';
import { SecretUnreadable, type SecretBox, type SecretPlace, type SecretStorage } from './kernel/secret-box';
import {
  bool,
  derive,
  int,
  oneOf,
  onlyIn,
  parseSettings,
  redactUrl,
  text,
  url,
  type ConfigOf,
  type Context,
  type LoadOptions,
} from './settings';

export { redactUrl, type LoadOptions };

/** The value of SECRETS_KEY by which an operator chooses clear storage in production. */
export const CLEAR_SECRETS_CHOICE = 'none-i-accept-clear-secrets';

const MiB = 1024 * 1024;
const DOCS = {
  esign: 'documents-and-esign.md',
  limits: 'documents-and-esign.md#limits-what-one-signer-or-a-flood-can-cost',
  seal: 'documents-and-esign.md#the-seal-a-pdf-digital-signature-on-every-signed-file',
};
const withoutTrailingSlashes = (value: string) => value.replace(/\/+$/, '');

// The settings that others' defaults and rules read, declared here and placed in the tree below.
const NODE_ENV = oneOf('NODE_ENV', ['development', 'production', 'test'], 'development', {
  doc: '`production` turns off GraphQL introspection and the explorer page, and demo data on `start`',
  emptyRefused: true,
});
const GRAPHQL_INTROSPECTION = bool('GRAPHQL_INTROSPECTION', (read) => read(NODE_ENV) !== 'production', {
  defaultDoc: 'on outside production',
  doc: 'GraphQL introspection, and with it the explorer page by default (`GRAPHQL_EXPLORER`)',
});
const HOST = text('HOST', {
  default: '127.0.0.1',
  doc: 'where `serve` and `start` listen (or their `--host`)',
});
const PORT = int('PORT', 3000, 0, 65535, {
  doc: 'the port `serve` and `start` listen on (or their `--port`)',
});
const PUBLIC_BASE_URL = url('PUBLIC_BASE_URL', ['http', 'https'], {
  default: (read) => {
    const host = read(HOST);
    const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `http://${local.includes(':') ? `[${local}]` : local}:${read(PORT)}`;
  },
  defaultDoc: '`http://HOST:PORT`',
  doc: 'where people and callers reach the service: links in e-sign messages (the signing page, document downloads) start with it',
});
const OUTBOX_SEND_TIMEOUT_MS = int('OUTBOX_SEND_TIMEOUT_MS', 30_000, 100, 600_000, {
  doc: 'SMTP connect, greeting and socket timeouts (a whole send gets three of them) and the SMS request timeout',
});
const OUTBOX_LEASE_MS = int('OUTBOX_LEASE_MS', 5 * 60_000, 1_000, 24 * 3_600_000, {
  doc: 'how long a claim holds; must exceed 3 x the send timeout and 2 x `WEBHOOK_TIMEOUT_MS`',
  // A claim must outlast the longest send (connect, greeting and data phases), or two workers meet.
  check: (lease, read) =>
    lease <= read(OUTBOX_SEND_TIMEOUT_MS) * 3
      ? `OUTBOX_LEASE_MS: must be more than 3 x OUTBOX_SEND_TIMEOUT_MS (${read(OUTBOX_SEND_TIMEOUT_MS) * 3})`
      : null,
});
const WEBHOOK_CONCURRENCY = int('WEBHOOK_CONCURRENCY', 64, 1, 1000, {
  doc: 'webhook attempts in flight at once per instance (a lane apart from e-sign email and SMS)',
});
const SECRETS = derive(
  {
    key: text('SECRETS_KEY', {
      secret: true,
      doc: `the key stored secrets are encrypted under (32 random bytes, base64: \`openssl rand -base64 32\`); production refuses to start without it or \`SECRETS_KEY_FILE\` unless \`SECRETS_KEY=${CLEAR_SECRETS_CHOICE}\`; see [Secrets at rest](operations.md#secrets-at-rest)`,
    }),
    file: text('SECRETS_KEY_FILE', {
      doc: 'instead of `SECRETS_KEY`: a file of keys, one a line, the current one first',
    }),
    previous: text('SECRETS_KEY_PREVIOUS', {
      secret: true,
      doc: 'previous keys (comma- or space-separated), which still decrypt during a rotation',
    }),
  },
  (inputs, { read, problems }) =>
    secretsConfig(read(inputs.key), read(inputs.file), read(inputs.previous), read(NODE_ENV), problems),
);
const PAYMENT_PROCESSOR = oneOf('PAYMENT_PROCESSOR', ['test', 'stripe'], 'test', {
  doc: 'which processor charges cards: `test` moves no money, `stripe` charges through Stripe (needs its secret key); see [Going live](payments.md#going-live)',
});

const UPSTREAM_SETTINGS = {
  url: text('UPSTREAM_URL', {
    doc: 'gateway mode in front of another deployment of the contract: its base URL, without `/v1`; see [Gateway mode](gateway.md)',
  }),
  file: text('UPSTREAM_CREDENTIALS_FILE', {
    doc: 'upstream credentials by company: `{ "<company id>": { "consumer_key": "...", "consumer_secret": "..." } }`',
  }),
  key: text('UPSTREAM_CONSUMER_KEY', { doc: "every company's upstream consumer key, when set" }),
  secret: text('UPSTREAM_CONSUMER_SECRET', {
    secret: true,
    doc: 'its consumer secret, best encrypted (`facility-ops secrets encrypt`)',
  }),
  timeoutMs: int('UPSTREAM_TIMEOUT_MS', 10_000, 100, 600_000, {
    doc: 'how long one upstream call may take, connection included',
  }),
  maxConnections: int('UPSTREAM_MAX_CONNECTIONS', 32, 1, 1024, {
    doc: 'connections kept open to the upstream at most (calls beyond wait their turn)',
  }),
  maxAnswerMb: int('UPSTREAM_MAX_ANSWER_MB', 32, 1, 1024, {
    doc: 'the largest upstream answer taken, in MiB',
  }),
  breakerFailures: int('UPSTREAM_BREAKER_FAILURES', 5, 1, 1000, {
    doc: 'consecutive failed calls that open the circuit breaker',
  }),
  breakerCooldownMs: int('UPSTREAM_BREAKER_COOLDOWN_MS', 10_000, 100, 3_600_000, {
    doc: 'how long an open breaker answers without calling the upstream',
  }),
  maxStaleMs: int('UPSTREAM_MAX_STALE_MS', 0, 0, 86_400_000, {
    doc: 'how old (in ms) a kept upstream answer may be and still be answered without asking the upstream; `0` revalidates every read. See [Gateway: a bounded staleness](gateway.md#a-bounded-staleness-upstream_max_stale_ms)',
  }),
};
const TRACING_SETTINGS = {
  disabled: bool('OTEL_SDK_DISABLED', false, { doc: '`true` turns tracing off with an endpoint set' }),
  tracesEndpoint: url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http', 'https'], {
    expected: 'an http:// or https:// URL',
    doc: 'where traces are sent (OTLP over HTTP with JSON); tracing is on when it or `OTEL_EXPORTER_OTLP_ENDPOINT` is set; see [Tracing](operations.md#tracing)',
  }),
  endpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http', 'https'], {
    expected: 'an http:// or https:// URL',
    doc: 'the OTLP base URL: traces go to its `/v1/traces`',
  }),
  protocol: text('OTEL_EXPORTER_OTLP_PROTOCOL', { doc: 'only `http/json` is sent' }),
  tracesProtocol: text('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', { doc: 'only `http/json` is sent' }),
  exporter: text('OTEL_TRACES_EXPORTER', { doc: '`otlp`, or `none` to send no traces' }),
  headers: text('OTEL_EXPORTER_OTLP_HEADERS', {
    secret: true,
    doc: 'headers of every export: `name=value` pairs, URL-encoded, comma-separated',
  }),
  tracesHeaders: text('OTEL_EXPORTER_OTLP_TRACES_HEADERS', {
    secret: true,
    doc: 'more headers of trace exports, the same way',
  }),
  serviceName: text('OTEL_SERVICE_NAME', { default: 'facility-ops', doc: "the service's name on its spans" }),
};

/**
 * Every setting, in the shape of the configuration. Problems are reported in this order (tests
 * assert it): the process, its address, the outbox, the webhooks, sealing, secrets, gateway mode,
 * then the remaining limits.
 */
const SETTINGS = {
  nodeEnv: NODE_ENV,
  databaseUrl: text('DATABASE_URL', {
    default: 'sqlite:./data/facility-ops.db',
    pattern: '^(sqlite:.+|postgres(ql)?://)',
    expected: 'sqlite:<path> or postgres://...',
    doc: '`sqlite:<path>` (embedded) or `postgres://user:pass@host:5432/db`',
  }),
  /** PostgreSQL: the longest one statement of `serve` and `start` may run, lock waits included; 0: no limit. */
  statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000, {
    doc: 'PostgreSQL: the longest (in ms) one statement of `serve` and `start` may run, waiting for a lock included; past it PostgreSQL cancels it and its request answers the internal error (`0`: no limit); migrations, imports and the other commands have none; see [Running on PostgreSQL](#running-on-postgresql)',
  }),
  /** SQLite: the longest a request's statement waits for another process's lock, off the event loop. */
  sqliteLockWaitMs: int('SQLITE_LOCK_WAIT_MS', 5_000, 0, 600_000, {
    doc: "SQLite: the longest (in ms) a statement of `serve` and `start` waits while another process holds the database's write lock (an `import` beside the service, another instance's write); it waits without holding up other requests, and past it its request answers the internal error (`0`: no wait); see [Running on SQLite](#running-on-sqlite)",
  }),
  logLevel: oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    (read) => (read(NODE_ENV) === 'test' ? 'silent' : 'info'),
    {
      defaultDoc: '`info` (`silent` in tests)',
      expected: 'one of fatal, error, warn, info, debug, trace, silent',
      doc: 'pino level; at `info` and below every request is logged, and a kept page asked again is answered through Fastify rather than the kept lane ([Performance](performance.md#the-kept-lane))',
    },
  ),
  // Read by src/fast-paths when it loads; checked here so a wrong value stops the start.
  fastPaths: oneOf('FAST_PATHS', ['on', 'off'], 'on', {
    doc: "`off` runs the hand-made fast paths' plain counterparts instead (the UTF-8 scratch buffer, PostgreSQL's binary COPY reader): for measuring whether they still pay; see [Performance](performance.md#fast-paths)",
  }),
  // Read by bin/facility-ops.js before anything loads (src/ops/launch.ts); checked here too, so
  // `facility-ops config` shows it and a wrong value is listed with the others.
  processTuning: oneOf('FACILITY_OPS_PROCESS_TUNING', ['on', 'off'], 'on', {
    doc: '`serve` and `start` on Linux run again, as the same process, with a 16 MB young generation and glibc malloc settings that keep cold pages out of full collections and page faults; `off` runs them as started; see [Process settings at start](operations.md#process-settings-at-start)',
  }),
  redisUrl: text('REDIS_URL', {
    pattern: '^rediss?://',
    expected: 'redis://...',
    doc: 'keep rate-limit counters in Redis so all instances share them (memory otherwise)',
  }),
  host: HOST,
  port: PORT,
  /** Where callers reach the service; links in outgoing messages start with it. */
  publicBaseUrl: PUBLIC_BASE_URL.map(withoutTrailingSlashes),
  /** E-sign delivery: the transports and the outbox worker's pace. */
  outbox: onlyIn('record', {
    sendTimeoutMs: OUTBOX_SEND_TIMEOUT_MS,
    leaseMs: OUTBOX_LEASE_MS,
    workerEnabled: bool('OUTBOX_WORKER', true, {
      doc: '`false` keeps this instance from sending (another one does)',
    }),
    smtpUrl: url('SMTP_URL', ['smtp', 'smtps'], {
      doc: '`smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465`; enables email',
    }),
    smtpFrom: text('SMTP_FROM', {
      default: 'Facility Ops <no-reply@localhost>',
      doc: 'the From address; its domain is the right side of every Message-ID',
    }),
    smtpReplyTo: text('SMTP_REPLY_TO', {
      doc: 'the Reply-To of every email; only with it does an e-sign email say "Reply to this email" (else "Contact <facility>")',
    }),
    smsWebhookUrl: url('SMS_WEBHOOK_URL', ['http', 'https'], {
      doc: '`https://...` endpoint of the SMS provider; enables text messages',
    }),
    smsWebhookToken: text('SMS_WEBHOOK_TOKEN', {
      secret: true,
      doc: 'sent as `Authorization: Bearer <token>` to the provider',
    }),
    batchSize: int('OUTBOX_BATCH_SIZE', 10, 1, 500, { doc: 'most messages one claim takes' }),
    concurrency: int('OUTBOX_CONCURRENCY', 10, 1, 1000, {
      doc: 'email and SMS attempts in flight at once per instance (a lane apart from webhooks)',
    }),
    maxAttempts: int('OUTBOX_MAX_ATTEMPTS', 8, 1, 100, {
      doc: 'attempts before a message is `FAILED`',
    }),
    backoffBaseMs: int('OUTBOX_BACKOFF_MS', 30_000, 1, 24 * 3_600_000, {
      doc: 'wait after the n-th failure: `min(OUTBOX_BACKOFF_MAX_MS, OUTBOX_BACKOFF_MS x 2^(n-1))`',
    }),
    backoffMaxMs: int('OUTBOX_BACKOFF_MAX_MS', 3_600_000, 1, 7 * 24 * 3_600_000, {
      doc: 'the longest wait between two attempts',
    }),
    pollIntervalMs: int('OUTBOX_POLL_MS', 1_000, 10, 3_600_000, {
      doc: 'how long a lane waits for new work when nothing more was due',
    }),
    stopGraceMs: int('OUTBOX_STOP_GRACE_MS', 5_000, 0, 600_000, {
      doc: 'on shutdown, how long attempts in flight may finish before they are aborted and put back',
    }),
  }),
  /** Webhook delivery (through the outbox worker). */
  webhooks: onlyIn('record', {
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000, {
      doc: "one attempt's time limit, resolving and connecting included; see [Webhooks](webhooks.md#settings)",
      // A claim must outlast a delivery's request too, or a second worker sends it meanwhile.
      check: (timeout, read) =>
        read(OUTBOX_LEASE_MS) <= timeout * 2
          ? `OUTBOX_LEASE_MS: must be more than 2 x WEBHOOK_TIMEOUT_MS (${timeout * 2})`
          : null,
    }),
    concurrency: WEBHOOK_CONCURRENCY,
    // Unset: a quarter of the lane (16 of 64), so a company with every endpoint hanging leaves the
    // rest of an instance's slots to the others. Set: never more than the lane itself.
    companyConcurrency: int(
      'WEBHOOK_COMPANY_CONCURRENCY',
      (read) => Math.max(1, Math.floor(read(WEBHOOK_CONCURRENCY) / 4)),
      1,
      1000,
      {
        defaultDoc: 'a quarter of `WEBHOOK_CONCURRENCY` (`16`)',
        doc: "one company's attempts in flight at once, all its endpoints, across all instances; at most `WEBHOOK_CONCURRENCY`",
        check: (value, read) =>
          value > read(WEBHOOK_CONCURRENCY)
            ? `WEBHOOK_COMPANY_CONCURRENCY: must be at most WEBHOOK_CONCURRENCY (${read(WEBHOOK_CONCURRENCY)}), got ${value}`
            : null,
      },
    ),
    /** Lower-case; empty: https and public addresses only. */
    allowHosts: derive(
      {
        hosts: text('WEBHOOK_ALLOW_HOSTS', {
          doc: 'hosts (comma-separated) that webhook endpoints may reach over plain http and at private addresses; see [Webhooks](webhooks.md#safety)',
        }),
      },
      ({ hosts }, { read, problems }) => Object.freeze(readHostList(read(hosts), problems)),
    ),
    maxResponseBytes: int('WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0, 16 * MiB, {
      doc: "how much of an endpoint's answer is read (the rest is dropped)",
    }),
    disableAfterHours: int('WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 24 * 365, {
      doc: 'an endpoint whose deliveries fail this long without a success is disabled',
    }),
    endpointConcurrency: int('WEBHOOK_ENDPOINT_CONCURRENCY', 2, 1, 100, {
      doc: "one endpoint's attempts in flight at once, across all instances",
    }),
  }),
  /** How signed PDFs are sealed: the operator's certificate (checked here) or the installation's own. */
  seal: onlyIn(
    'record',
    derive(
      {
        file: text('SEAL_P12_FILE', {
          doc: `a PKCS #12 file (\`.p12\`, \`.pfx\`) holding an RSA key and its certificate (and its issuers, which are embedded too), from a CA or your own, that seals every signed PDF; see [The seal](${DOCS.seal})`,
        }),
        passphrase: text('SEAL_P12_PASSPHRASE', { secret: true, doc: "the P12's passphrase" }),
        keyPassphrase: text('SEAL_KEY_PASSPHRASE', {
          secret: true,
          doc: "without `SEAL_P12_FILE`: the installation's own key is stored encrypted with it (PKCS #8, AES-256-CBC); without it (and without `SECRETS_KEY`) the key is stored in clear in the database. Set it before the first start: a key made in clear stays so until the next rotation",
        }),
      },
      (inputs, { read, problems }): SealSettings => {
        const seal: SealSettings = Object.freeze({
          operatorKey: operatorSealingKey(read(inputs.file), read(inputs.passphrase) ?? '', problems),
          keyPassphrase: read(inputs.keyPassphrase),
          commonName: `Facility Ops document seal (${hostOf(read(PUBLIC_BASE_URL))})`,
        });
        if (seal.operatorKey && seal.keyPassphrase) {
          problems.push(
            "SEAL_KEY_PASSPHRASE: set only without SEAL_P12_FILE (it encrypts the installation's own sealing key)",
          );
        }
        return seal;
      },
    ),
  ),
  trustedDocuments: oneOf('TRUSTED_DOCUMENTS', ['off', 'allow', 'require'], 'allow', {
    doc: "`off`: no document ids; `allow`: ids and free text; `require`: a client's known documents only ([Trusted documents](graphql.md#trusted-documents))",
  }),
  secrets: SECRETS,
  /** Gateway mode: the deployment of the contract this instance stands in front of; null otherwise. */
  upstream: onlyIn('gateway', derive(UPSTREAM_SETTINGS, upstreamConfig)),
  /** OpenTelemetry traces over OTLP/HTTP, from the standard OTEL_* variables; null when off. */
  tracing: derive(TRACING_SETTINGS, tracingConfig),
  /**
   * `json` (pino's lines), `pretty` (one readable line each), or `auto`: pretty in development when
   * standard output is a terminal, json otherwise (production, tests, a file).
   */
  logFormat: oneOf('LOG_FORMAT', ['json', 'pretty'], 'auto', {
    defaultDoc: '`pretty` in development at a terminal, else `json`',
    doc: "`json`: pino's JSON lines; `pretty`: one line each, `HH:MM:SS.mmm LEVEL message  key=value ...` (UTC), for a person at a terminal",
  }),
  /** Largest request body accepted, in bytes. */
  bodyLimit: int('BODY_LIMIT_BYTES', MiB, 1024, 64 * MiB, { doc: 'larger bodies answer 413' }),
  oauthWindowSeconds: int('OAUTH_WINDOW_SECONDS', 300, 1, 3600, {
    doc: 'accepted clock difference of `oauth_timestamp`, and nonce lifetime',
  }),
  rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000, {
    doc: 'requests per client per minute (`0` turns it off); over it: 429 with `Retry-After`',
  }),
  graphqlIntrospection: GRAPHQL_INTROSPECTION,
  graphqlExplorer: oneOf(
    'GRAPHQL_EXPLORER',
    ['graphiql', 'sandbox', 'off'],
    (read) => (read(GRAPHQL_INTROSPECTION) ? 'graphiql' : 'off'),
    {
      defaultDoc: '`graphiql` where introspection is on (outside production), else `off`',
      doc: "what `GET /graphql` shows a browser: `graphiql`, GraphiQL served from this service's own files; `sandbox`, Apollo Sandbox (loaded from Apollo's CDN); `off`, no page ([The explorer](graphql.md#the-explorer))",
    },
  ),
  graphqlFederation: oneOf('GRAPHQL_FEDERATION', ['off', 'on'], 'off', {
    doc: '`on`: `/graphql` is also an Apollo Federation v2 subgraph (`_service`, `_entities`) a router composes ([Federation](graphql.md#federation))',
  }),
  graphqlMaxCost: int('GRAPHQL_MAX_COST', 20_000, 1, 100_000_000, {
    doc: 'the largest estimated cost of a GraphQL operation, and the most objects one may resolve (256 bytes of response per unit, at least 1 MiB) ([Demand control](graphql.md#demand-control))',
  }),
  trustProxy: bool('TRUST_PROXY', false, {
    doc: 'honour `X-Forwarded-*` (client address, and `https` in OAuth base strings)',
  }),
  esignLinkTtlHours: onlyIn(
    'record',
    int('ESIGN_LINK_TTL_HOURS', 336, 1, 24 * 366, {
      defaultDoc: '`336` (14 days)',
      doc: `how long an e-sign message's signing link works; see [E-sign signing](${DOCS.esign}#e-sign-signing-the-public-page)`,
    }),
  ),
  /** Requests per minute the public signing pages take from one address and for one link; 0 turns either off. */
  signingRateLimit: onlyIn('record', {
    perAddress: int('SIGNING_RATE_LIMIT_PER_ADDRESS', 120, 0, 1_000_000, {
      doc: 'requests a minute to the signing pages from one client address (`0` turns it off)',
    }),
    perToken: int('SIGNING_RATE_LIMIT_PER_TOKEN', 30, 0, 1_000_000, {
      doc: 'requests a minute to the signing pages of one link, from any address (`0` turns it off)',
    }),
  }),
  /**
   * The worker threads that decode drawn signatures off the event loop: how many, how many drawings
   * more may wait for one (beyond, the signing answers 503), and how long a drawing may take, its
   * wait included. The pool that stamps and seals the signed PDFs has the same bounds, a document a job.
   */
  signatureWorkers: onlyIn('record', {
    // One core is the event loop's: one worker on two cores, two from three on.
    size: int('SIGNATURE_WORKERS', () => Math.min(2, Math.max(1, availableParallelism() - 1)), 1, 16, {
      defaultDoc: '1 on 2 cores (2 from 3)',
      doc: `worker threads that decode drawn signatures (and stamp and seal signed PDFs) off the event loop; see [E-sign](${DOCS.limits})`,
    }),
    queue: int('SIGNATURE_QUEUE', 8, 0, 1000, {
      doc: 'drawings that may wait for a worker; a full line answers 503 with `Retry-After`',
    }),
    deadlineMs: int('SIGNATURE_DEADLINE_MS', 15_000, 100, 600_000, {
      doc: 'the longest a drawing may take, its wait included; a late worker answers 503',
    }),
  }),
  /**
   * PostgreSQL: how long an instance trusts the revision tokens it has heard of without asking the
   * database; 0 reads the token for every kept answer (see store/revision-notices.ts).
   */
  revisions: onlyIn('record', {
    leaseMs: int('REVISION_LEASE_MS', 2000, 0, 60_000, {
      doc: 'PostgreSQL: how long (in ms) an instance serves kept answers on the revision tokens it heard of, without reading them, after its last pulse came back; a write waits for the other instances to hear it, at most this long (`0` reads a token per kept answer); see [Performance](performance.md#kept-answers-on-postgresql-without-a-round-trip)',
    }),
  }),
  /** Memory for serialized list pages kept between requests, in bytes; 0 turns the cache off. */
  pageCacheBytes: int('PAGE_CACHE_MB', 64, 0, 64 * 1024, {
    doc: 'memory for kept list pages and GraphQL responses, in MiB (`0` turns keeping off); see [Performance](performance.md)',
  }).map((mb) => mb * MiB),
  /** GraphQL subscriptions (graphql-ws and SSE on /graphql): their limits, heartbeats and replay. */
  live: {
    perConnection: int('LIVE_SUBSCRIPTIONS_PER_CONNECTION', 20, 1, 1000, {
      doc: 'GraphQL subscriptions one WebSocket connection may hold; one more is refused `RATE_LIMITED`; see [Subscriptions](subscriptions.md)',
    }),
    perClient: int('LIVE_SUBSCRIPTIONS_PER_CLIENT', 2000, 1, 1_000_000, {
      doc: 'subscriptions one client application may hold on an instance, over both transports',
    }),
    connectionsPerClient: int('LIVE_CONNECTIONS_PER_CLIENT', 1000, 1, 1_000_000, {
      doc: 'open connections (WebSockets and SSE streams) one client application may hold on an instance; one more is closed 1013 (WebSocket) or answered 429 (SSE)',
    }),
    queueLimit: int('LIVE_QUEUE_LIMIT', 256, 1, 100_000, {
      doc: 'events one subscription may have waiting unread; one more drops it (slow consumer)',
    }),
    socketBufferBytes: int('LIVE_SOCKET_BUFFER_KB', 1024, 16, 1024 * 1024, {
      doc: 'KiB a connection may have waiting unsent before it is dropped (slow consumer)',
    }).map((kb) => kb * 1024),
    heartbeatMs: int('LIVE_HEARTBEAT_MS', 15_000, 1_000, 600_000, {
      doc: "how often a WebSocket is pinged; one that did not answer the last ping is closed (SSE sends graphql-sse's comment every 12 s)",
    }),
    replayWindowMinutes: int('LIVE_REPLAY_WINDOW_MINUTES', 60, 1, 7 * 24 * 60, {
      doc: 'how far back `Last-Event-ID` and `since` replay (older live events are deleted); beyond, `GONE`',
    }),
    replayLimit: int('LIVE_REPLAY_LIMIT', 1_000, 1, 100_000, {
      doc: 'missed events one replay sends at most; more is `GONE` (query again)',
    }),
    pollMs: onlyIn(
      'record',
      int('LIVE_POLL_MS', 500, 10, 60_000, {
        doc: "SQLite: how often the live journal is read besides right after this process's commits",
      }),
    ),
    upstreamPollMs: onlyIn(
      'gateway',
      int('UPSTREAM_POLL_MS', 2_000, 100, 3_600_000, {
        doc: 'how often each watched upstream resource is asked again (conditionally), once for all its subscribers',
      }),
    ),
  },
  /** Which processor charges cards (docs/payments.md#going-live). */
  payments: onlyIn('record', {
    processor: PAYMENT_PROCESSOR,
    /** Required with `stripe`; null otherwise. Never logged. */
    stripeSecretKey: text('STRIPE_SECRET_KEY', {
      secret: true,
      doc: "the account's secret key: `sk_test_...` in Stripe's test mode, `sk_live_...` to move money",
      check: (key, read) =>
        read(PAYMENT_PROCESSOR) === 'stripe' && key === null
          ? 'STRIPE_SECRET_KEY: required with PAYMENT_PROCESSOR=stripe (a secret key, sk_live_... or sk_test_...)'
          : null,
    }).map((key, read) => (read(PAYMENT_PROCESSOR) === 'stripe' ? key : null)),
    stripeApiUrl: url('STRIPE_API_URL', ['http', 'https'], {
      default: 'https://api.stripe.com',
      doc: "the API's base URL (tests point it at a fake on loopback)",
    }).map(withoutTrailingSlashes),
    timeoutMs: int('PAYMENT_PROCESSOR_TIMEOUT_MS', 20_000, 100, 120_000, {
      doc: 'how long one call to the processor may take; past it the payment answers 504 (Stripe), 400/3 (test)',
    }),
    /** An approved charge waits before its record (saying so on stderr), so a test can kill the process there. */
    testHoldBeforeRecord: text('FACILITY_OPS_TEST_HOLD_BEFORE_RECORD', {
      defaultDoc: 'off',
      doc: 'tests only, read only under `NODE_ENV=test`: `1` makes an approved charge wait before its record so a test can kill the process there ([Phases](payments.md#phases))',
    }).map((hold, read) => read(NODE_ENV) === 'test' && hold === '1'),
  }),
};

/** Service configuration, parsed once from the environment at start-up. */
export type Config = ConfigOf<typeof SETTINGS>;
export type OutboxConfig = Config['outbox'];
export type WebhooksConfig = Config['webhooks'];
export type LiveConfig = Config['live'];
export type PaymentsConfig = Config['payments'];
export type TrustedDocumentsMode = Config['trustedDocuments'];
export type UpstreamConfig = NonNullable<Config['upstream']>;

/** Secrets at rest (consumer secrets, webhook secrets): sealed under the operator's keys, or clear. */
export interface SecretsConfig {
  readonly storage: SecretStorage;
  /** The current key first, then the previous ones; null in clear storage. */
  readonly keys: SecretKeys | null;
}

/** One company's OAuth 1.0 consumer credentials at the upstream. */
export interface UpstreamCredentials {
  readonly consumerKey: string;
  readonly consumerSecret: string;
}

/** Where traces go (docs/operations.md#tracing). */
export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces. */
  readonly tracesEndpoint: string;
  readonly serviceName: string;
  /** `name=value` pairs, comma-separated. */
  readonly headers: Readonly<Record<string, string>>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Reads every setting, collecting all problems (in the order of `SETTINGS`) before failing. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  return readConfig(env, options).config;
}

/** The configuration and the settings' values as read, for `facility-ops config`. */
export function readConfig(env: NodeJS.ProcessEnv, options: LoadOptions = {}) {
  const read = parseSettings(SETTINGS, env, options);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return read;
}

export { SETTINGS };
/**
 * SEAL_P12_FILE opened with SEAL_P12_PASSPHRASE, and checked: a key and its certificate, valid now,
 * for signing. Null without the file; problems name the setting, never the passphrase.
 */
function operatorSealingKey(file: string | null, passphrase: string, problems: string[]): SealingKey | null {
  if (!file) {
    if (passphrase) problems.push('SEAL_P12_PASSPHRASE: set only with SEAL_P12_FILE');
    return null;
  }
  const bytes = settingFile('SEAL_P12_FILE', file, problems);
  if (bytes === null) return null;
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
function readHostList(raw: string | null, problems: string[]): string[] {
  if (raw === null || raw.trim() === '') return [];
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
  raw: string | null,
  file: string | null,
  previousKeys: string | null,
  nodeEnv: ConfigOf<typeof NODE_ENV>,
  problems: string[],
): SecretsConfig {
  const previous = previousKeys?.trim();
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
  return (
    settingFile('SECRETS_KEY_FILE', file, problems)
      ?.toString('utf8')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')) ?? null
  );
}

/** The bytes of the file a setting names; null, with a problem naming the setting, when unreadable. */
function settingFile(setting: string, file: string, problems: string[]): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    problems.push(`${setting}: ${code === 'ENOENT' ? `no file ${file}` : `cannot read ${file} (${code})`}`);
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
function upstreamConfig(settings: typeof UPSTREAM_SETTINGS, { read, problems, options }: Context) {
  const raw = read(settings.url);
  const file = read(settings.file);
  const key = read(settings.key);
  const secret = read(settings.secret);
  if (raw === null) {
    for (const [name, value] of [
      ['UPSTREAM_CREDENTIALS_FILE', file],
      ['UPSTREAM_CONSUMER_KEY', key],
      ['UPSTREAM_CONSUMER_SECRET', secret],
    ] as const) {
      if (value) problems.push(`${name}: set only in gateway mode, with UPSTREAM_URL`);
    }
    return null;
  }
  const box = secretBoxFor(read(SECRETS));
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
  if ((options.upstreamCredentials ?? true) && !file && !key && !secret) {
    problems.push(
      'UPSTREAM_URL: gateway mode needs upstream credentials: UPSTREAM_CREDENTIALS_FILE, or UPSTREAM_CONSUMER_KEY and UPSTREAM_CONSUMER_SECRET',
    );
  }
  return {
    url,
    credentialsByCompany,
    defaultCredentials,
    timeoutMs: read(settings.timeoutMs),
    maxConnections: read(settings.maxConnections),
    maxAnswerBytes: read(settings.maxAnswerMb) * MiB,
    breakerFailures: read(settings.breakerFailures),
    breakerCooldownMs: read(settings.breakerCooldownMs),
    maxStaleMs: read(settings.maxStaleMs),
  };
}

/** `{ "<company id>": { "consumer_key": "...", "consumer_secret": "..." } }`; secrets never in a problem. */
function readCredentialsFile(
  file: string,
  into: Map<string, UpstreamCredentials>,
  problems: string[],
  box: SecretBox,
): void {
  const bytes = settingFile('UPSTREAM_CREDENTIALS_FILE', file, problems);
  if (bytes === null) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    problems.push(`UPSTREAM_CREDENTIALS_FILE: ${file} is not JSON`);
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

/**
 * The standard OpenTelemetry variables this service reads: tracing is on when an OTLP endpoint is
 * set and OTEL_SDK_DISABLED is not true. Only OTLP over HTTP with JSON is sent.
 */
function tracingConfig(
  settings: typeof TRACING_SETTINGS,
  { read, problems, isSet }: Context,
): TracingConfig | null {
  const disabled = read(settings.disabled);
  const tracesOnly = read(settings.tracesEndpoint);
  const base = read(settings.endpoint);
  // The rest matters only where traces are to be sent (other programs may share the variables).
  if (!isSet(settings.endpoint) && !isSet(settings.tracesEndpoint)) return null;
  for (const setting of [settings.protocol, settings.tracesProtocol]) {
    const protocol = read(setting);
    if (protocol && protocol !== 'http/json') {
      problems.push(`${setting.name}: only http/json is sent (OTLP over HTTP with JSON), got "${protocol}"`);
    }
  }
  const traces = read(settings.exporter);
  if (traces && traces !== 'otlp' && traces !== 'none') {
    problems.push(`OTEL_TRACES_EXPORTER: expected otlp or none, got "${traces}"`);
  }
  const headers: Record<string, string> = {};
  for (const setting of [settings.headers, settings.tracesHeaders]) {
    const raw = read(setting);
    if (!raw) continue;
    for (const pair of raw.split(',')) {
      const at = pair.indexOf('=');
      const key = at > 0 ? pair.slice(0, at).trim() : '';
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
        // The value may be a secret: only the name is shown.
        problems.push(
          `${setting.name}: expected name=value pairs separated by commas, got a pair named "${key.slice(0, 40)}"`,
        );
        continue;
      }
      try {
        headers[key.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        problems.push(`${setting.name}: the value of "${key}" is not URL-encoded text`);
      }
    }
  }
  const tracesEndpoint = tracesOnly ?? (base ? `${withoutTrailingSlashes(base)}/v1/traces` : null);
  if (disabled || traces === 'none' || tracesEndpoint === null) return null;
  return Object.freeze({
    tracesEndpoint,
    serviceName: read(settings.serviceName),
    headers: Object.freeze(headers),
  });
}
