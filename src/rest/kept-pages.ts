import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { KeptList } from '../caching/kept-lists';
import type { CachedPage, PageCache } from '../caching/page-cache';

/**
 * The page a route keeps between requests (its `kept` option names the list, so the scope it is
 * checked against), from memory while unchanged, else from `build`. `key` tells pages of the same
 * route apart (owner, list, page and page size, ...).
 *
 * The answer gets a weak ETag (`sendOkSerialized` sends it, and 304 to a matching If-None-Match):
 * the page's revision token and key, and the parameters the envelope echoes. Weak, because two
 * answers with the same tag differ in `meta.request_id` alone.
 */
export function keptPage<Owner, M>(
  request: FastifyRequest,
  pages: PageCache,
  owner: Owner,
  key: string,
  build: () => Promise<CachedPage<M>>,
): Promise<CachedPage<M>> {
  const pageKey = keptPageKey(request, key);
  return pages.get(keptList<Owner>(request).scope(owner), pageKey, build, (token) => {
    request.envelope.version = `${token} ${pageKey}`;
  });
}

/**
 * The page keptPage would answer from memory, when it can be had without waiting, else null (then
 * keptPage answers). A kept answer so needs no promise at all on SQLite.
 */
export function keptPageNow<Owner, M>(
  request: FastifyRequest,
  pages: PageCache,
  owner: Owner,
  key: string,
): CachedPage<M> | null {
  const pageKey = keptPageKey(request, key);
  return pages.keptNow<M>(keptList<Owner>(request).scope(owner), pageKey, (token) => {
    request.envelope.version = `${token} ${pageKey}`;
  });
}

function keptList<Owner>(request: FastifyRequest): KeptList<Owner> {
  const kept = request.routeConfig.kept as KeptList<Owner> | undefined;
  if (!kept) throw new Error(`${request.routeUrl} keeps pages but names no kept list`);
  return kept;
}

function keptPageKey(request: FastifyRequest, key: string): string {
  return `rest ${request.routeUrl} ${key}`;
}

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
