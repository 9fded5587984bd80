import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { KeptPageOf, KeptPageRequest } from './kept-pages';
/**
 * One route of the /v1 contract: its method, path, options (the schema that validates requests
 * and documents the route in /v1/openapi.json, and the route's config) and, apart, how the system
 * of record answers it. The table of these is the one place the contract's routes are declared:
 * the system of record registers them with their handlers (registerV1Routes), gateway mode with a
 * handler that forwards to the upstream (registerGatewayRoutes), so both serve the same paths,
 * checks and document.
 */
export interface ContractRoute<S = never> {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly options: RouteShorthandOptions;
  /** The system of record's handler, made with the services `S` it reads (its area's `RouteServices`). */
  readonly handler: (services: S) => RouteHandlerMethod;
  /**
   * A route whose config names a kept list (`kept`): the page a request asks for, which the kept
   * pages' hook answers while it is kept (see keptPagesHook); the handler builds and sends it else.
   */
  readonly page?: KeptPageOf<S>;
}

/** A request typed by its route's TypeBox schema, as its handler's is (see ContractHandler). */
export type ContractRequest<Schema extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  Omit<Schema, 'response'>,
  TypeBoxTypeProvider
>;

/**
 * A handler whose request is typed by the route's TypeBox schema (its params, querystring, body
 * and headers). The response schemas document the answer and type nothing: answers are written by
 * the records' `toContract` (src/contract), typed by the same schemas.
 */
export type ContractHandler<Schema extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  Omit<Schema, 'response'>,
  TypeBoxTypeProvider
>;

/**
 * A contract route, its request typed by its schema (see ContractHandler); a kept route's `page`
 * reads the page a request asks for (see ContractRoute.page).
 */
export function contractRoute<S, const Schema extends FastifySchema>(
  method: ContractRoute['method'],
  url: string,
  options: Omit<RouteShorthandOptions, 'schema'> & { schema: Schema },
  handler: (services: S) => ContractHandler<Schema>,
  page?: (services: S) => (request: ContractRequest<Schema>) => KeptPageRequest,
): ContractRoute<S> {
  return {
    method,
    url,
    options,
    handler: handler as unknown as ContractRoute<S>['handler'],
    ...(page ? { page: page as unknown as KeptPageOf<S> } : {}),
  };
}

/** Registers `routes`, each answered by `handlerOf(route)`, with `extra` options added. */
export function registerContractRoutes<S>(
  app: FastifyInstance,
  routes: readonly ContractRoute<S>[],
  handlerOf: (route: ContractRoute<S>) => RouteHandlerMethod,
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
