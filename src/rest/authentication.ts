import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { AuthService } from '../auth/auth.service';
import type { Caller } from '../kernel/caller';
import { DomainError } from '../kernel/errors';
import { retryAfterOf, retryAfterOverLimit, type RateLimitStore } from '../ops/rate-limit';

/** What the authentication hook is made with. */
export interface AuthenticationOptions {
  readonly auth: Pick<AuthService, 'authenticate' | 'knownCaller'>;
  /** Requests per minute of one client; 0 counts none. */
  readonly limit: number;
  readonly rateLimits: RateLimitStore;
  /** Where an unavailable rate limit store is told of (the request is then allowed). */
  readonly log: FastifyBaseLogger;
}

/** The authentication hook, and what it can tell before a request's body is read. */
export interface AuthenticationHook extends preValidationHookHandler {
  /**
   * A caller known at once (a bearer token seen in the last seconds) and counted against the rate
   * limit as the hook counts it: `request.caller` is set, and the hook then passes the request
   * without counting it again. Returns the refusal when over the limit, true when the caller is
   * set, and false, with nothing counted, when only the hook can tell.
   */
  atOnce(request: FastifyRequest): true | false | DomainError;
  /**
   * For a request Fastify has not seen yet (the kept lane, KeptLane): the caller its connection and
   * Authorization header make known at once (as atOnce knows it), or null. Counts nothing.
   */
  callerNow(connection: object, authorization: string | undefined): Caller | null;
  /**
   * Counts such a request of `caller` against the rate limit, as atOnce counts: true when within
   * it; false when over it, and the request then carries its caller and refusal to the hook, which
   * answers it without counting it again.
   */
  countNow(raw: IncomingMessage, caller: Caller): boolean;
}

/** What a request counted by countNow and over the limit carries to the hook. */
const COUNTED = Symbol('counted before Fastify');

interface Counted {
  [COUNTED]?: { readonly caller: Caller; readonly refusal: DomainError };
}

/**
 * The authentication of a request and the rate limit of its client, as a preValidation hook:
 * added by the plugins that answer callers (/v1's, and the GraphQL POST route), never at the root,
 * so a public route is public by being registered outside them. It runs after the request is
 * parsed, since OAuth 1.0 signs form-encoded body parameters, and after the root's check of what
 * was sent (its shape); the route's own validation runs after it.
 */
export function authenticationHook(options: AuthenticationOptions): AuthenticationHook {
  const { auth, limit, rateLimits, log } = options;
  const rateLimited = (retryAfter: number) =>
    new DomainError(
      'rate_limited',
      `rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter} s`,
      { retryAfter },
    );
  const enforceRateLimit = async (clientId: string): Promise<void> => {
    const retryAfter = await retryAfterOverLimit(rateLimits, clientId, limit, 60_000, (error) =>
      log.warn({ err: error }, 'rate limit store (REDIS_URL) unavailable; request allowed'),
    );
    if (retryAfter !== null) throw rateLimited(retryAfter);
  };
  // With the counts in this process's memory, a known caller is counted without a promise.
  const hitNow = limit > 0 ? rateLimits.hitNow?.bind(rateLimits) : undefined;
  const countsAtOnce = limit === 0 || hitNow !== undefined;

  const callerNow = (connection: object, authorization: string | undefined): Caller | null =>
    countsAtOnce ? auth.knownCaller(connection, authorization) : null;
  const refusalNow = (caller: Caller): DomainError | null => {
    const retryAfter = hitNow === undefined ? null : retryAfterOf(hitNow(caller.clientId, 60_000), limit);
    return retryAfter === null ? null : rateLimited(retryAfter);
  };

  const atOnce = (request: FastifyRequest): true | false | DomainError => {
    const counted = (request.raw as Counted)[COUNTED];
    if (counted !== undefined) {
      request.caller = counted.caller;
      return counted.refusal;
    }
    // A bearer token seen in the last seconds is known at once: no promise to wait for.
    const known = callerNow(request.raw.socket, request.headers.authorization);
    if (known === null) return false;
    request.caller = known;
    return refusalNow(known) ?? true;
  };

  const countNow = (raw: IncomingMessage, caller: Caller): boolean => {
    const refusal = refusalNow(caller);
    if (refusal === null) return true;
    (raw as Counted)[COUNTED] = { caller, refusal };
    return false;
  };

  // A hook that need not wait takes `done`: an async hook costs every request a promise and a tick.
  const hook: preValidationHookHandler = function authenticate(request, _reply, done) {
    // Known and counted before its body was read (atOnce): not counted twice.
    if (request.caller !== null) return done();
    const now = atOnce(request);
    if (now !== false) return done(now === true ? undefined : now);
    const credentials = {
      method: request.method,
      protocol: request.protocol,
      host: request.host,
      url: request.url,
      authorization: request.headers.authorization,
      formParams: request.formPairs,
    };
    auth
      .authenticate(credentials)
      .then(async (caller) => {
        request.caller = caller;
        if (limit > 0) await enforceRateLimit(caller.clientId);
      })
      .then(() => done(), done);
  };
  return Object.assign(hook, { atOnce, callerNow, countNow });
}
