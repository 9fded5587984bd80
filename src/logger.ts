import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

import { redactRequestUrl, sensitiveFieldSpellings } from './kernel/sensitive';
import { mayHoldCardNumber, maskCardNumbers, maskCardNumbersIn } from './kernel/card-numbers';

const TIME_KEY = '"time":';
/** A line's time is epoch milliseconds, 13 digits: it is no card number. */
const KEPT_KEYS: ReadonlySet<string> = new Set(['time']);

/**
 * A log line as it may be written: every card number in it (a URL, an error's message, any field)
 * masked to its last four digits, whatever name it stands under. A line without 13 digits in a
 * row past its time (nearly every line) is scanned once and written as it is.
 */
export function maskLogLine(line: string): string {
  const time = line.indexOf(TIME_KEY);
  const after = time < 0 ? -1 : line.indexOf(',', time);
  if (!mayHoldCardNumber(line, after < 0 ? 0 : after)) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return maskCardNumbers(line);
  }
  const masked = maskCardNumbersIn(parsed, KEPT_KEYS);
  return masked === parsed ? line : `${JSON.stringify(masked)}\n`;
}

/**
 * The service's pino logger. Request lines carry method, route url (credentials and card numbers
 * removed), request id and remote address; headers and bodies are never logged, so Authorization
 * and card data stay out, and a card number that reaches a line some other way (an error's message)
 * is masked there (maskLogLine).
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          '*.consumer_secret',
          '*.bearer_token',
          ...sensitiveFieldSpellings().map((name) => `*.${name}`),
        ],
        censor: '[REDACTED]',
      },
      hooks: { streamWrite: maskLogLine },
      serializers: {
        req(request: FastifyRequest) {
          return {
            method: request.method,
            url: redactRequestUrl(request.url),
            remoteAddress: request.ip,
          };
        },
      },
    },
    stream,
  );
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes its pino child (bound to the request id) only when it first writes
 * a line. Fastify makes a child for every request, and at the production level (`warn`) most never
 * log: making it cost a tenth of a request answered from the page cache.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(value: string) {
    this.real().level = value;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!(this.parent as unknown as Logger).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: request loggers made on first use (see LazyChildLogger). */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route with a level of its own needs its own child to judge what it writes.
  if (options.level !== undefined) return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options);
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/**
 * One pino JSON line as a person reads it: `14:03:07.123 INFO  message  key=value ...` (LOG_FORMAT=
 * pretty). The time is UTC; pid and hostname are left out. A line that is not JSON passes as it is.
 */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, pid: _pid, hostname: _hostname, ...rest } = entry;
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const details = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${at} ${name.padEnd(5)} ${String(msg ?? '')}${details ? `  ${details}` : ''}\n`;
}

/** A pino destination writing each line formatted by `formatLogLine` to `out`. */
export function prettyLogStream(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line)) };
}
