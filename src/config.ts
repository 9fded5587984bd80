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

  const config: Config = {
    nodeEnv,
    databaseUrl,
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 3000, 0, 65535),
    logLevel,
    bodyLimit: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    oauthWindowSeconds: int('OAUTH_WINDOW_SECONDS', 300, 1, 3600),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000),
    redisUrl,
    graphqlIntrospection: bool('GRAPHQL_INTROSPECTION', nodeEnv !== 'production'),
    trustProxy: bool('TRUST_PROXY', false),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** A URL with its password replaced, safe to print. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
