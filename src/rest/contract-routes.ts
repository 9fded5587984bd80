import type {
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { Services } from '../services';

/**
 * One route of the /v1 contract: its method, path, options (the schema that validates requests
 * and documents the route in /v1/openapi.json, and the route's config) and, apart, how the system
 * of record answers it. The table of these is the one place the contract's routes are declared:
 * the system of record registers them with their handlers (registerV1Routes), gateway mode with a
 * handler that forwards to the upstream (registerGatewayRoutes), so both serve the same paths,
 * checks and document.
 */
export interface ContractRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly options: RouteShorthandOptions;
  /** The system of record's handler, made with the services it reads. */
  readonly handler: (services: Services) => RouteHandlerMethod;
}

/** A contract route, typed by what its request carries (`Params`, `Querystring`, `Body`). */
export function contractRoute<Route extends RouteGenericInterface>(
  method: ContractRoute['method'],
  url: string,
  options: RouteShorthandOptions,
  handler: (
    services: Services,
  ) => RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, Route>,
): ContractRoute {
  return { method, url, options, handler: handler as unknown as ContractRoute['handler'] };
}

/** Registers `routes`, each answered by `handlerOf(route)`, with `extra` options added. */
export function registerContractRoutes(
  app: FastifyInstance,
  routes: readonly ContractRoute[],
  handlerOf: (route: ContractRoute) => RouteHandlerMethod,
  extra: RouteShorthandOptions = {},
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      ...route.options,
      ...extra,
      handler: handlerOf(route),
    });
  }
}
