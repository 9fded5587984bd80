import { randomBytes } from 'node:crypto';
import { oauthAuthorization } from '../auth/oauth1';
import { parseCommandArgs, UsageError } from './args';
import type { CliIo } from './io';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A shell word: single-quoted, any single quote inside closed, escaped and reopened. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * `sign [--method M] [--json <body>] <url>`: one curl line, signed with one-legged OAuth 1.0
 * (HMAC-SHA1) with the consumer key and secret of `--consumer-key`/`--consumer-secret` or of
 * CONSUMER_KEY/CONSUMER_SECRET (what `clients create --export ''` sets). Reads no database.
 */
export function signCommand(io: CliIo, argv: string[]): number {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      method: { type: 'string' },
      json: { type: 'string' },
      'consumer-key': { type: 'string' },
      'consumer-secret': { type: 'string' },
    },
    1,
  );
  const [raw] = positionals;
  if (raw === undefined) throw new UsageError('sign needs a URL: facility-ops sign "$BASE/v1/$F/flippers"');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`sign needs an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`sign needs an absolute http(s) URL, got "${raw}"`);
  const method = String(values.method ?? (values.json === undefined ? 'GET' : 'POST')).toUpperCase();
  if (!METHODS.includes(method as (typeof METHODS)[number]))
    throw new UsageError(`--method must be one of ${METHODS.join(', ')}, got "${String(values.method)}"`);
  const consumerKey = (values['consumer-key'] as string | undefined) ?? io.env.CONSUMER_KEY;
  const consumerSecret = (values['consumer-secret'] as string | undefined) ?? io.env.CONSUMER_SECRET;
  if (!consumerKey || !consumerSecret) {
    throw new UsageError(
      'sign needs the consumer key and secret: --consumer-key and --consumer-secret, or CONSUMER_KEY and CONSUMER_SECRET (eval "$(npx facility-ops clients create --company <id> --name <name> --export \'\')" sets them)',
    );
  }
  const authorization = oauthAuthorization({
    method,
    url,
    consumerKey,
    consumerSecret,
    nonce: randomBytes(16).toString('hex'),
    timestamp: Math.floor((io.now?.() ?? new Date()).getTime() / 1000),
  });
  const parts = ['curl', '-s'];
  if (method !== 'GET' && !(method === 'POST' && values.json !== undefined)) parts.push('-X', method);
  parts.push('-H', shellWord(`Authorization: ${authorization}`));
  if (values.json !== undefined) {
    parts.push('-H', shellWord('Content-Type: application/json'), '-d', shellWord(String(values.json)));
  }
  parts.push(shellWord(url.href));
  io.out(parts.join(' '));
  return 0;
}
