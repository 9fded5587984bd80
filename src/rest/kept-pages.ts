import type { FastifyRequest } from 'fastify';
import type { KeptList } from '../caching/kept-lists';
import type { CachedPage, PageCache } from '../caching/page-cache';

/**
 * The page a route keeps between requests (its `kept` option names the list, so the scope it is
 * checked against), from memory while unchanged, else from `build`. `key` tells pages of the same
 * route apart (owner, list, page and page size, ...).
 */
export function keptPage<Owner, M>(
  request: FastifyRequest,
  pages: PageCache,
  owner: Owner,
  key: string,
  build: () => Promise<CachedPage<M>>,
): Promise<CachedPage<M>> {
  const kept = request.routeOptions.config.kept as KeptList<Owner> | undefined;
  if (!kept) throw new Error(`${request.routeOptions.url} keeps pages but names no kept list`);
  return pages.get(kept.scope(owner), `rest ${request.routeOptions.url} ${key}`, build);
}
