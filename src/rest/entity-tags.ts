import { createHash } from 'node:crypto';

/** The weak ETag of an answer: its page's version and what the envelope echoes, hashed. */
export function entityTag(version: string, echo: string): string {
  return `W/"${createHash('sha1').update(version).update('\n').update(echo).digest('base64url')}"`;
}

/** Whether If-None-Match names the tag (weak comparison, RFC 9110 13.1.2), or is `*`. */
export function noneMatchHolds(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === opaque;
  });
}
