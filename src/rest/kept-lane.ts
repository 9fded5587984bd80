import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyServerFactory, FastifyServerOptions, RawServerDefault } from 'fastify';
import type { PageCache } from '../caching/page-cache';
import { requestIdFrom } from '../edge/request-id';
import type { Caller } from '../kernel/caller';
import type { RevisionScope } from '../kernel/revisions';
import type { AuthenticationHook } from './authentication';
import { JSON_CONTENT_TYPE, keptAnswerParts, knownKeptEnvelope, writeParts } from './envelope';
import { readBody } from './json-text';

/** URLs remembered at most; more start the memory over (OAuth 1.0 in the query makes each URL new). */
const URLS_REMEMBERED = 4096;
/** Companies remembered for one URL; more start that URL's over. */
const COMPANIES_PER_URL = 64;
/** A longer URL is not remembered. */
const URL_MAX_CHARS = 2048;

/**
 * What the whole path through Fastify decided for a GET of one URL by a caller of one company, and
 * answered from a kept page: the route, the page's scope and key, and what the route's scope found.
 */
export interface KeptDecision {
  /** The route's pattern, as metrics name it. */
  readonly routeUrl: string;
  readonly scope: RevisionScope;
  readonly pageKey: string;
  /** The value of the route's scope parameter (the facility's id), null outside a scope. */
  readonly scopeId: string | null;
  /** What the scope found for it (the facility), the same object while the scope remembers it. */
  readonly scopeFound: object | null;
  /** How the scope tells it at once (see V1Scope.knownNow). */
  readonly knownNow: (caller: Caller, id: string) => object | null;
}

/** What the lane asks on every request it answers. */
export interface KeptLaneParts {
  readonly pages: PageCache;
  readonly auth: Pick<AuthenticationHook, 'callerNow' | 'countNow'>;
  /** Counts an answer in the request metrics, as the app's onResponse hook counts Fastify's. */
  readonly record: (method: string, route: string, status: number, seconds: number) => void;
  /** Whether the app is shutting down: its answers then go through Fastify, which closes their connections. */
  readonly closing: () => boolean;
}

/**
 * The kept lane: a GET answered from a kept page by the whole path through Fastify (shape check,
 * authentication, validation, the route's scope, the kept pages' hook; see keptPagesHook) is
 * remembered by its URL and the caller's company, and the same GET again is answered before Fastify
 * routes it, with the same bytes (request id and ETag included), the same metrics and the same
 * rate limit. Everything the path decided from the URL alone (its route, its parameters' validity,
 * its page's key) holds for the same URL; what may change is asked again on every request: the
 * caller (a bearer token known at once on its connection; anything else, OAuth 1.0 included, goes
 * through Fastify), what the route's scope remembers for the caller (the same facility object, so a
 * changed or forgotten facility goes through Fastify), whether the page is still current (its
 * scope's revision, read at once), and its envelope for this URL. A request with a body, an
 * If-None-Match, or any doubt goes through Fastify, which answers it as before; so does every
 * request while the app shuts down. The lane is off (never opened) when request lines are logged
 * (LOG_LEVEL info or below) or requests are traced, which only the path through Fastify does.
 *
 * GraphQL's POSTs come this way too (BodyLane): one whose text GraphQL remembers answering from a
 * kept response (KeptBodies) is read whole here and answered from it; any other, and one that
 * cannot be answered so, goes on to Fastify with the body read (readBodyOf).
 */
export class KeptLane {
  private readonly byUrl = new Map<string, Map<string, KeptDecision>>();
  private parts: KeptLaneParts | null = null;
  private bodies: BodyLane | null = null;

  /** Whether it answers requests (opened). */
  get open(): boolean {
    return this.parts !== null;
  }

  /** Starts answering, asking `parts`; until then every request goes through Fastify. */
  start(parts: KeptLaneParts): void {
    this.parts = parts;
  }

  /** Offers POSTs `bodies` takes their whole body (GraphQL's: see BodyLane); only once started. */
  startBodies(bodies: BodyLane): void {
    if (this.parts !== null) this.bodies = bodies;
  }

  /**
   * Whether the request is one the body lane may answer from its body: it then reads the body
   * (`answerFromBody`) before Fastify sees the request.
   */
  readsBody(req: IncomingMessage): boolean {
    return this.bodies !== null && req.method === 'POST' && !this.parts!.closing() && this.bodies.takes(req);
  }

  /**
   * Reads the request's body whole, then answers it from the body lane, or hands it to Fastify
   * (`handOn`) with the body read (or the error reading it) for the route to take (readBodyOf).
   */
  answerFromBody(req: IncomingMessage, res: ServerResponse, handOn: () => void): void {
    const started = performance.now();
    readBody(req, (error, body) => {
      if (error === null && !this.parts!.closing()) {
        const bodies = this.bodies!;
        let answered: boolean;
        try {
          answered = bodies.answered(req, res, body);
        } catch {
          answered = endedByFailure(res);
        }
        if (answered)
          return this.parts!.record('POST', bodies.path, 200, (performance.now() - started) / 1000);
      }
      (req as BodyRead)[BODY_READ] = { error, body };
      handOn();
    });
  }

  /** After the path through Fastify answered a GET of `url` by a caller of `companyId` from a kept page. */
  remember(url: string, companyId: string, decision: KeptDecision): void {
    if (this.parts === null || url.length > URL_MAX_CHARS) return;
    let byCompany = this.byUrl.get(url);
    if (byCompany === undefined) {
      if (this.byUrl.size >= URLS_REMEMBERED) this.byUrl.clear();
      this.byUrl.set(url, (byCompany = new Map()));
    } else if (byCompany.size >= COMPANIES_PER_URL && !byCompany.has(companyId)) byCompany.clear();
    byCompany.set(companyId, decision);
  }

  /**
   * Answers the request when it is a remembered GET whose page is current, and says whether it
   * did; when it did not, nothing was written and Fastify answers it (a request over the rate limit
   * carries its refusal there: see AuthenticationHook.countNow).
   */
  answered(req: IncomingMessage, res: ServerResponse): boolean {
    const parts = this.parts;
    if (parts === null || req.method !== 'GET') return false;
    const url = req.url ?? '';
    const byCompany = this.byUrl.get(url);
    if (byCompany === undefined) return false;
    const started = performance.now();
    const headers = req.headers;
    if (
      headers['if-none-match'] !== undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      parts.closing()
    ) {
      return false;
    }
    const caller = parts.auth.callerNow(req.socket, headers.authorization);
    if (caller === null) return false;
    const decision = byCompany.get(caller.companyId);
    if (decision === undefined) return false;
    if (decision.scopeId !== null && decision.knownNow(caller, decision.scopeId) !== decision.scopeFound)
      return false;
    const current = parts.pages.currentNow(decision.scope, decision.pageKey);
    if (current === null) return false;
    const bytes = current.page.bytes;
    const kept = knownKeptEnvelope(bytes, url, `${current.token} ${decision.pageKey}`);
    if (kept === undefined) return false;
    // Counted only now, once it is answered here (or carries its refusal to the hook).
    if (!parts.auth.countNow(req, caller)) return false;
    parts.pages.countKeptAnswer();
    const id = requestIdFrom(headers['x-request-id']);
    const body = keptAnswerParts(bytes, kept, id);
    let length = 0;
    for (const part of body) length += part.length;
    const answer: OutgoingHttpHeaders = {
      'x-request-id': id,
      etag: kept.tag,
      'content-type': JSON_CONTENT_TYPE,
      'content-length': length,
    };
    writeParts(res, answer, body, length, false);
    parts.record('GET', decision.routeUrl, 200, (performance.now() - started) / 1000);
    return true;
  }
}

/** A lane of requests answered from their body (GraphQL's POST of a text KeptBodies remembers). */
export interface BodyLane {
  /** The route's path, as metrics name it. */
  readonly path: string;
  /** Whether a POST may be answered from its body, told from its URL and headers before it is read. */
  takes(req: IncomingMessage): boolean;
  /**
   * Answers the request from its whole body when it can, and says whether it did; when it did not,
   * nothing was written or counted. The lane counts its answer in the request metrics.
   */
  answered(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean;
}

const BODY_READ = Symbol('body read by the kept lane');

interface BodyRead {
  [BODY_READ]?: { readonly error: Error | null; readonly body: Buffer };
}

/**
 * The body the kept lane read from a request it handed on to Fastify (or the error reading it,
 * with its status), taken once; undefined when it read none. The route's preParsing hook gives it
 * to Fastify's parser in place of the request's stream, which has ended.
 */
export function readBodyOf(
  req: IncomingMessage,
): { readonly error: Error | null; readonly body: Buffer } | undefined {
  const read = (req as BodyRead)[BODY_READ];
  if (read !== undefined) (req as BodyRead)[BODY_READ] = undefined;
  return read;
}

/**
 * Whether a lane that threw (a store that fails to read a revision) had begun answering. A request
 * it had not begun answering goes on to Fastify, which meets the same failure and answers it in the
 * envelope; one it had is ended by closing its connection.
 */
function endedByFailure(res: ServerResponse): boolean {
  if (!res.headersSent) return false;
  if (!res.writableEnded) res.destroy();
  return true;
}

/**
 * Fastify's HTTP server (as lib/server.js makes it for HTTP/1.1, with the same timeouts), its
 * requests offered to the kept lane before Fastify's own handler.
 */
export function laneServerFactory(lane: KeptLane): FastifyServerFactory<RawServerDefault> {
  return (handler, options: FastifyServerOptions): Server => {
    const http = (options as { http?: ServerOptions | null }).http ?? {};
    const server = createServer(http, (req, res) => {
      let answered: boolean;
      try {
        answered = lane.answered(req, res);
      } catch {
        answered = endedByFailure(res);
      }
      if (answered) return;
      if (lane.readsBody(req)) lane.answerFromBody(req, res, () => handler(req, res));
      else handler(req, res);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
