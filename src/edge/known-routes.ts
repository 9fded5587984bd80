import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Answers a request whose path is known but whose method is not; `allowed` is for the Allow header. */
export type WrongMethodResponder = (
  request: FastifyRequest,
  reply: FastifyReply,
  allowed: string[],
) => unknown;

// Allow lists methods in this order; HEAD goes without saying wherever GET is.
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function methodRank(method: string): number {
  const rank = METHOD_ORDER.indexOf(method);
  return rank < 0 ? METHOD_ORDER.length : rank;
}

/**
 * Tells a request that matched no route apart: a known path with another method (405, with Allow)
 * from an unknown path (404). Fastify's router knows only the methods it was given and sends any
 * other (OPTIONS, TRACE, PURGE, ...) to not-found; this asks the router itself (`findRoute`) for
 * the path under each method the service answers, so no second map of routes is kept.
 */
export class KnownRoutes {
  private app: FastifyInstance | null = null;
  /** The methods some route answers, in Allow order. */
  private methods: string[] = [];
  private readonly responders = new Map<string, WrongMethodResponder>();

  /** Learns the methods in use as routes are added (call before any route is registered). */
  listen(app: FastifyInstance): void {
    this.app = app;
    app.addHook('onRoute', (route) => {
      const methods = new Set(this.methods);
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        if (method !== 'HEAD') methods.add(method);
      }
      this.methods = [...methods].sort((a, b) => methodRank(a) - methodRank(b) || (a < b ? -1 : 1));
    });
  }

  /** A path whose wrong methods are answered in its own transport's shape (GraphQL's, say). */
  answerWrongMethodsOf(path: string, responder: WrongMethodResponder): void {
    this.responders.set(path, responder);
  }

  /**
   * The methods the path answers, in Allow order, and its parameters as the route reads them;
   * null when no route has this path.
   */
  lookup(path: string): { allowed: string[]; params: Record<string, string> } | null {
    if (this.app === null) return null;
    const url = path.split('?')[0];
    const allowed: string[] = [];
    let params: Record<string, string> | null = null;
    for (const method of this.methods) {
      const found = this.app.findRoute({ method, url });
      if (found === null) continue;
      allowed.push(method);
      params ??= found.params as Record<string, string>;
    }
    return params === null ? null : { allowed, params };
  }

  /** The responder for a known path's wrong methods, when its transport has its own. */
  responderFor(path: string): WrongMethodResponder | undefined {
    return this.responders.get(path.split('?')[0]);
  }
}
