import { createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 3986 percent-encoding, as RFC 5849 section 3.6 requires. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Parameters of an `Authorization: OAuth k="v", ...` header; null when it is not an OAuth header. */
export function parseOAuthHeader(header: string): Map<string, string> | null {
  const match = /^OAuth(?:\s+(.*))?$/is.exec(header.trim());
  if (!match) return null;
  const body = match[1] ?? '';
  const params = new Map<string, string>();
  const pair = /([A-Za-z0-9_.~%-]+)\s*=\s*"([^"]*)"/g;
  let found: RegExpExecArray | null;
  while ((found = pair.exec(body)) !== null) {
    try {
      params.set(decodeURIComponent(found[1]), decodeURIComponent(found[2]));
    } catch {
      return null;
    }
  }
  return params;
}

export interface SignatureInput {
  method: string;
  /** scheme://host[:port]/path, normalized by `baseUri`. */
  baseUri: string;
  /** Query, form-body and oauth_* parameters (without oauth_signature and realm), decoded. */
  params: Array<[string, string]>;
}

/** scheme and host lower-case, default port dropped, query and fragment removed. */
export function baseUri(protocol: string, host: string, path: string): string {
  const scheme = protocol.toLowerCase();
  let authority = host.toLowerCase();
  if (
    (scheme === 'http' && authority.endsWith(':80')) ||
    (scheme === 'https' && authority.endsWith(':443'))
  ) {
    authority = authority.slice(0, authority.lastIndexOf(':'));
  }
  const cleanPath = path.split('?')[0].split('#')[0] || '/';
  return `${scheme}://${authority}${cleanPath}`;
}

/** RFC 5849 section 3.4.1 signature base string. */
export function signatureBaseString(input: SignatureInput): string {
  const normalized = input.params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return [input.method.toUpperCase(), percentEncode(input.baseUri), percentEncode(normalized)].join('&');
}

export type SignatureMethod = 'HMAC-SHA1' | 'HMAC-SHA256';

export function sign(base: string, consumerSecret: string, method: SignatureMethod): string {
  const key = `${percentEncode(consumerSecret)}&`;
  return createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key)
    .update(base)
    .digest('base64');
}

/** Constant-time comparison of the expected and the given signature. */
export function signaturesMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

/**
 * The `Authorization: OAuth ...` header value of a one-legged request, signed as a legacy SDK
 * signs it: the URL's query parameters (and `formParams`, for a form-encoded body) included.
 */
export function oauthAuthorization(input: {
  method: string;
  url: URL;
  consumerKey: string;
  consumerSecret: string;
  nonce: string;
  timestamp: number;
  formParams?: Array<[string, string]>;
  signatureMethod?: SignatureMethod;
}): string {
  const signatureMethod = input.signatureMethod ?? 'HMAC-SHA1';
  const oauth: Array<[string, string]> = [
    ['oauth_consumer_key', input.consumerKey],
    ['oauth_nonce', input.nonce],
    ['oauth_signature_method', signatureMethod],
    ['oauth_timestamp', String(input.timestamp)],
    ['oauth_version', '1.0'],
  ];
  const base = signatureBaseString({
    method: input.method,
    baseUri: baseUri(input.url.protocol.replace(/:$/, ''), input.url.host, input.url.pathname),
    params: [...input.url.searchParams, ...(input.formParams ?? []), ...oauth],
  });
  const signature = sign(base, input.consumerSecret, signatureMethod);
  return `OAuth ${[...oauth, ['oauth_signature', signature]]
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(', ')}`;
}
