import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Answers a request whose path is known but whose method is not; `allowed` is for the Allow header. */
export type WrongMethodResponder = (
  request: FastifyRequest,
  reply: FastifyReply,
  allowed: string[],
) => unknown;

interface KnownRoute {
  segments: string[];
  methods: Set<string>;
}

// Allow lists methods in this order; HEAD goes without saying wherever GET is.
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function segmentsOf(path: string): string[] {
  return path.split('?')[0].split('/').slice(1);
}

/** The path's parameters when it matches the pattern (decoded as the router decodes them), else null. */
function matchParams(pattern: string[], path: string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i];
    if (segment.startsWith(':')) {
      if (path[i] === '') return null;
      params[segment.slice(1)] = decodeSegment(path[i]);
    } else if (segment !== path[i]) {
      return null;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function methodRank(method: string): number {
  const rank = METHOD_ORDER.indexOf(method);
  return rank < 0 ? METHOD_ORDER.length : rank;
}

/**
 * Every route's path pattern with the methods it answers, so a request that matched no route can
 * be told apart: a known path with another method (405, with Allow) from an unknown path (404).
 * Fastify's router knows only the methods it was given and sends any other (OPTIONS, TRACE, PURGE,
 * ...) to not-found; this answers them all in one place.
 */
export class KnownRoutes {
  private readonly routes = new Map<string, KnownRoute>();
  private readonly responders = new Map<string, WrongMethodResponder>();

  /** Records each route as it is added (call before any route is registered). */
  listen(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const known = this.routes.get(route.url) ?? { segments: segmentsOf(route.url), methods: new Set() };
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        if (method !== 'HEAD') known.methods.add(method);
      }
      this.routes.set(route.url, known);
    });
  }

  /** A path whose wrong methods are answered in its own transport's shape (GraphQL's, say). */
  answerWrongMethodsOf(path: string, responder: WrongMethodResponder): void {
    this.responders.set(path, responder);
  }

  /**
   * The methods the path answers, in Allow order, and its parameters as the route would read them;
   * null when no route has this path.
   */
  lookup(path: string): { allowed: string[]; params: Record<string, string> } | null {
    const wanted = segmentsOf(path);
    const methods = new Set<string>();
    let params: Record<string, string> | null = null;
    for (const route of this.routes.values()) {
      const found = matchParams(route.segments, wanted);
      if (found === null) continue;
      for (const method of route.methods) methods.add(method);
      params ??= found;
    }
    if (params === null) return null;
    return {
      allowed: [...methods].sort((a, b) => methodRank(a) - methodRank(b) || (a < b ? -1 : 1)),
      params,
    };
  }

  /** The responder for a known path's wrong methods, when its transport has its own. */
  responderFor(path: string): WrongMethodResponder | undefined {
    return this.responders.get(path.split('?')[0]);
  }
}
