import { createHmac, randomBytes } from 'node:crypto';

/** The prefix of Standard Webhooks secrets; the rest is the key in base64. */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes, `whsec_` + base64. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A secret's HMAC key: the base64 after `whsec_`. */
function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
}

/**
 * The Standard Webhooks signature of a delivery: `v1,` and the base64 HMAC-SHA256, keyed by the
 * secret, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers of one attempt. With several secrets (during a rotation)
 * `webhook-signature` holds one signature per secret, separated by spaces; a receiver accepts the
 * delivery when any of them matches its secret.
 */
export function webhookHeaders(
  id: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' '),
  };
}
