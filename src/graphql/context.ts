import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { Caller } from '../kernel/caller';
import type { ContractUpstream } from '../gateway/upstream.ports';
import type { Loaders, LoaderSource } from './loaders';
import { UpstreamReads } from '../gateway/upstream-reads';
import type { ResponseTrace } from './response-trace';

/**
 * What every resolver receives: the facts of one request, built anew for each. The services are
 * not here: each resolver class is made with the few it uses (see `servedSchema`).
 */
export interface GraphqlContext {
  caller: Caller;
  loaders: Loaders;
  requestId: string;
  log: FastifyBaseLogger;
  /**
   * Set when the response may be kept (see GraphqlResponseCache): `@Kept` fields record their
   * scope here before reading, and root records are read fresh.
   */
  trace: ResponseTrace | null;
  /** Gateway mode: this request's reads of the upstream; null otherwise. */
  upstream: UpstreamReads | null;
  /** What the kept-response cache did for this operation (GraphqlResponseCache sets it). */
  cacheResult: CacheResult;
  /** A subscription over SSE resumed with `Last-Event-ID`: the cursor it gave (read as `since`). */
  lastEventId?: string | null;
}

/** A kept response answered (`hit`), one built to be kept (`miss`), or none that could be (`none`). */
export type CacheResult = 'hit' | 'miss' | 'none';

/** What a request's context is made from: its loaders, and gateway mode's upstream. */
export interface ContextServices {
  /** A request's loaders, made for its caller (src/modules.ts makes them of every area's). */
  readonly loaders: LoaderSource;
  /** Gateway mode: the deployment of the contract this instance stands in front of; null otherwise. */
  readonly upstream: ContractUpstream | null;
}

/**
 * Apollo's context function. Authentication ran before (the app's preValidation hook); the check
 * here keeps any path that skipped it (the public landing page GET) from executing an operation.
 */
export function createContext(request: FastifyRequest, services: ContextServices): GraphqlContext {
  const caller = request.caller;
  if (!caller) {
    throw new GraphQLError('Invalid OAuth Request: credentials missing', {
      extensions: { code: 'UNAUTHENTICATED', errorCode: 2, http: { status: 401 } },
    });
  }
  return {
    caller,
    loaders: services.loaders(caller),
    requestId: request.id,
    log: request.log,
    trace: null,
    upstream: services.upstream ? gatewayReads(request, services.upstream) : null,
    cacheResult: 'none',
  };
}

const readsOfRequests = new WeakMap<FastifyRequest, UpstreamReads>();

/** Gateway mode: the request's reads of the upstream, one set however often it is asked for. */
export function gatewayReads(request: FastifyRequest, upstream: ContractUpstream): UpstreamReads {
  let reads = readsOfRequests.get(request);
  if (!reads) {
    reads = new UpstreamReads(upstream, request.caller!, request.id);
    readsOfRequests.set(request, reads);
  }
  return reads;
}
