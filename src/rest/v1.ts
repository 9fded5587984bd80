import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { registerContractRoutes, type ContractRoute } from './contract-routes';
import { sendError } from './errors';
import { askingHandler, keepingHandler, keptPagesHook, type KeptLaneOfScope } from './kept-pages';
import type { PageCache } from '../caching/page-cache';
import type { Caller } from '../kernel/caller';
import type { KeptLane } from './kept-lane';

/**
 * A scope of /v1: the routes whose path holds its parameter (`/v1/:facility_id/...`), registered
 * in a plugin of their own under /v1's, to which the scope adds its hooks (the facility's, which
 * sets `request.facility` once for every route under it).
 */
export interface V1Scope<S> {
  /** The path parameter of the scope's routes, without its colon (`facility_id`). */
  readonly param: string;
  /** Adds the scope's hooks to the plugin its routes are registered in, made with the services `S`. */
  readonly plugin: (scope: FastifyInstance, services: S) => void;
  /**
   * What the scope's hook would find for `caller` and the parameter's value when it can tell at
   * once (the facility or company it remembers as the caller's), else null: the kept lane asks it
   * again on every request it answers (see KeptLane). A scope without it keeps its routes out of
   * the lane.
   */
  readonly knownNow?: (services: S) => (caller: Caller, id: string) => object | null;
}

/**
 * /v1 as an encapsulated plugin: its error handler, its authentication (`authenticate`, a
 * preValidation hook: see authenticationHook) and the routes `register` adds, the system of
 * record's (registerV1Routes) or gateway mode's. Routes outside it (health, metrics, the OpenAPI
 * document, the signing pages) are public by being outside it.
 */
export async function registerV1(
  app: FastifyInstance,
  authenticate: preValidationHookHandler,
  register: (v1: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await app.register(async (v1) => {
    // The app's own handler is set after the plugins register, later than this one would inherit it.
    v1.setErrorHandler((error, request, reply) => sendError(error, request, reply));
    v1.addHook('preValidation', authenticate);
    await register(v1);
  });
}

/**
 * The system of record's /v1 routes, answered from the services (src/modules.ts lists the routes),
 * in the plugin given: each run of routes under a scope (`scopes`) in a plugin of its own with the
 * scope's hooks, in the routes' order (the order of /v1/openapi.json's paths); a kept route (its
 * `page`) with the kept pages' hook (see keptPagesHook), or, when no page is kept
 * (PAGE_CACHE_MB=0), with no hook: its handler reads the request itself (see askingHandler).
 */
export async function registerV1Routes<S>(
  v1: FastifyInstance,
  routes: readonly ContractRoute<S>[],
  services: S & { readonly pages: PageCache },
  scopes: readonly V1Scope<S>[] = [],
  /** Where a kept route's answers are remembered for the kept lane; none when it is off. */
  lane: KeptLane | null = null,
): Promise<void> {
  const keeps = services.pages.keeps;
  const handlerOf = (route: ContractRoute<S>) => {
    const handler = route.handler(services);
    if (!route.page) return handler;
    return keeps ? keepingHandler(handler) : askingHandler(handler, route.page(services));
  };
  for (const { scope, routes: run } of runsOf(routes, scopes)) {
    const kept = run.map((route) => keptRoute(route, services, keeps, laneOf(lane, scope, services)));
    if (scope === null) {
      registerContractRoutes(v1, kept, handlerOf);
      continue;
    }
    await v1.register(async (scoped) => {
      scope.plugin(scoped, services);
      registerContractRoutes(scoped, kept, handlerOf);
    });
  }
}

/**
 * A kept route with the kept pages' hook after its scopes' (a route's own hooks run after its
 * plugins'); as it is when no page is kept (`keeps` false), since the hook would only ever miss.
 */
function keptRoute<S>(
  route: ContractRoute<S>,
  services: S & { readonly pages: PageCache },
  keeps: boolean,
  lane: KeptLaneOfScope | null,
): ContractRoute<S> {
  if (!route.page) return route;
  if (!route.options.config?.kept) throw new Error(`${route.url} reads pages but names no kept list`);
  if (!keeps) return route;
  const hook = keptPagesHook(services.pages, route.page(services), lane);
  return { ...route, options: { ...route.options, preHandler: hook } };
}

/**
 * The kept lane as a kept route of `scope` remembers its answers in it: with the scope's parameter
 * and what the scope finds at once. None when the lane is off or the scope cannot tell at once.
 */
function laneOf<S>(lane: KeptLane | null, scope: V1Scope<S> | null, services: S): KeptLaneOfScope | null {
  if (lane === null) return null;
  if (scope === null) return { lane, param: null, knownNow: () => null };
  if (scope.knownNow === undefined) return null;
  return { lane, param: scope.param, knownNow: scope.knownNow(services) };
}

/** The routes in order, cut into runs of those of one scope (or of none). */
function runsOf<S>(
  routes: readonly ContractRoute<S>[],
  scopes: readonly V1Scope<S>[],
): Array<{ scope: V1Scope<S> | null; routes: ContractRoute<S>[] }> {
  const runs: Array<{ scope: V1Scope<S> | null; routes: ContractRoute<S>[] }> = [];
  for (const route of routes) {
    const segments = route.url.split('/');
    const scope = scopes.find((candidate) => segments.includes(`:${candidate.param}`)) ?? null;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.scope === scope) last.routes.push(route);
    else runs.push({ scope, routes: [route] });
  }
  return runs;
}
