import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type { KeptList } from '../caching/kept-lists';
import type { CachedPage, PageCache } from '../caching/page-cache';
import type { PageMeta } from '../kernel/pagination';
import type { Caller } from '../kernel/caller';
import type { RevisionScope } from '../kernel/revisions';
import { sendOkSerialized } from './envelope';
import type { KeptLane } from './kept-lane';

/** The page of a kept route a request asks for: whose it is (its kept list's owner), and its key. */
export interface KeptPageRequest {
  /** What the route's kept list (config `kept`) reads the revision scope from: the facility, the company. */
  readonly owner: unknown;
  /** Tells the route's pages apart (owner, list, page and page size, ...). */
  readonly key: string;
  /** What the route read the request into, for its handler when it builds the page (see askedQuery). */
  readonly query?: unknown;
  /**
   * Sets what the envelope echoes of a kept page (the defaults read, the filters), just before it
   * is answered; the handler sets it itself when it builds the page.
   */
  readonly echo?: (meta: PageMeta | undefined) => void;
}

/** The kept lane as the routes of one scope remember their answers in it (see V1Scope.knownNow). */
export interface KeptLaneOfScope {
  readonly lane: KeptLane;
  /** The path parameter the route's scope reads (`facility_id`); null outside a scope. */
  readonly param: string | null;
  /** What the scope finds at once for the caller and the parameter's value, else null. */
  readonly knownNow: (caller: Caller, id: string) => object | null;
}

/**
 * How a kept route reads the page a request asks for, made with the services `S`: its owner and
 * key, from what the route's scopes set (`request.facility`) and its parameters; a bad parameter is
 * refused here, before any page is looked for.
 */
export type KeptPageOf<S> = (services: S) => (request: FastifyRequest) => KeptPageRequest;

/**
 * The hook of a route whose config names a kept list (`kept`) and whose `page` reads the page a
 * request asks for: a preHandler after the scopes' (so after validation and the facility), which
 * answers the page while it is kept and its scope's revision is unchanged, from memory (without a
 * promise when the revision can be read at once; see PageCache.keptNow); else the route's handler
 * runs and the page it sends (sendOkSerialized) is kept, under the revision read before it was
 * built. Requests for the same page meanwhile wait for it (PageCache.open). So a list's handler is
 * its service, then its envelope: it never drives the cache.
 *
 * The answer gets a weak ETag (`sendOkSerialized` sends it, and 304 to a matching If-None-Match):
 * the page's revision token and key, and the parameters the envelope echoes. Weak, because two
 * answers with the same tag differ in `meta.request_id` alone.
 */
export function keptPagesHook(
  pages: PageCache,
  pageOf: (request: FastifyRequest) => KeptPageRequest,
  /** Where a GET answered from a kept page is remembered, so the same GET is answered before Fastify. */
  lane: KeptLaneOfScope | null = null,
): preHandlerHookHandler {
  return function keptPages(request, reply, done) {
    let asked: KeptPageRequest;
    try {
      asked = pageOf(request);
    } catch (error) {
      return done(error as Error);
    }
    const scope = keptList(request).scope(asked.owner);
    const pageKey = `rest ${request.routeUrl} ${asked.key}`;
    const onToken = (token: string) => {
      request.envelope.version = `${token} ${pageKey}`;
    };
    // Answered here, the request goes no further: the hook does not call `done`.
    const answer = (page: CachedPage<PageMeta | undefined>) => {
      asked.echo?.(page.meta);
      sendOkSerialized(request, reply, page.bytes, page.meta);
      if (lane !== null && lane.lane.open) rememberAnswer(lane, request, reply.statusCode, scope, pageKey);
    };
    const now = pages.keptNow<PageMeta | undefined>(scope, pageKey, onToken);
    if (now !== null) return answer(now);
    pages.open<PageMeta | undefined>(scope, pageKey, onToken).then((found) => {
      if (found.page !== null) return answer(found.page);
      request.envelope.keeping = found;
      request.envelope.asked = asked.query;
      done();
    }, done);
  };
}

/**
 * Remembers a kept page's answer to a GET in the kept lane, with what the route's scope found for
 * the caller (the lane asks it again on every request; see KeptLane). A 304, a HEAD, a request
 * with a body, and a scope that cannot tell at once are not remembered.
 */
function rememberAnswer(
  lane: KeptLaneOfScope,
  request: FastifyRequest,
  status: number,
  scope: RevisionScope,
  pageKey: string,
): void {
  const caller = request.caller;
  if (request.method !== 'GET' || status !== 200 || caller === null || request.body !== undefined) return;
  if (request.routeUrl === null) return;
  let scopeId: string | null = null;
  let scopeFound: object | null = null;
  if (lane.param !== null) {
    scopeId = (request.params as Record<string, string | undefined>)[lane.param] ?? null;
    scopeFound = scopeId === null ? null : lane.knownNow(caller, scopeId);
    if (scopeFound === null) return;
  }
  lane.lane.remember(request.url, caller.companyId, {
    routeUrl: request.routeUrl,
    scope,
    pageKey,
    scopeId,
    scopeFound,
    knownNow: lane.knownNow,
  });
}

/**
 * The handler of a kept route: the route's own, and the page slot it was given failed when it
 * fails (with its error: requests waiting for the page get the same) or answers without sending
 * the page (sendOkSerialized fills the slot and takes it off the request, so an answer that sent
 * its page makes no error here).
 */
export function keepingHandler(handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function keeping(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    try {
      const answer: unknown = await handler.call(this, request, reply);
      request.envelope.keeping?.fail(new Error(`${request.routeUrl} answered without sending its page`));
      return answer;
    } catch (error) {
      request.envelope.keeping?.fail(error);
      throw error;
    }
  };
}

/**
 * The handler of a kept route when no page is kept (PAGE_CACHE_MB=0), which has no kept pages'
 * hook: the route's `page` reads the request (a bad parameter is refused here, as the hook refuses
 * it, before the handler runs), then the route's own handler builds the page and sends it. Neither
 * a lookup nor a slot, so no promise beyond the handler's own.
 */
export function askingHandler(
  handler: RouteHandlerMethod,
  pageOf: (request: FastifyRequest) => KeptPageRequest,
): RouteHandlerMethod {
  return function asking(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    request.envelope.asked = pageOf(request).query;
    return handler.call(this, request, reply);
  };
}

/** What the route's `page` read the request into (`query`), for its handler building the page. */
export function askedQuery<Query>(request: FastifyRequest): Query {
  return request.envelope.asked as Query;
}

function keptList(request: FastifyRequest): KeptList<unknown> {
  const kept = request.routeConfig.kept as KeptList<unknown> | undefined;
  if (!kept) throw new Error(`${request.routeUrl} keeps pages but names no kept list`);
  return kept;
}
