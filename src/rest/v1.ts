import type { FastifyInstance } from 'fastify';
import { registerContractRoutes, type ContractRoute } from './contract-routes';

/** The system of record's /v1: every contract route answered from the services (src/modules.ts lists the routes). */
export function registerV1Routes<S>(
  app: FastifyInstance,
  routes: readonly ContractRoute<S>[],
  services: S,
): void {
  registerContractRoutes(app, routes, (route) => route.handler(services));
}
