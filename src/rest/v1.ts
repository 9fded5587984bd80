import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Services } from '../services';
import { errorEnvelope } from './envelope';
import { registerFlipperRoutes } from './flippers.routes';
import { registerRateAppliedActionsRoutes } from './rate-applied-actions.routes';
import { registerLedgersRoutes } from './ledgers.routes';
import { registerNotesRoutes } from './notes.routes';
import { registerDocumentsRoutes } from './documents.routes';
import { registerDocumentDownloadRoutes } from './document-downloads.routes';
import { registerMoveInsRoutes } from './move-ins.routes';
import { registerInvoiceableItemsRoutes } from './invoiceable-items.routes';
import { registerRateChangesRoutes } from './rate-changes.routes';
import { registerPaymentRoutes } from './payments.routes';
import { registerEsignRoutes } from './esign.routes';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every /v1 path of the contract; a known path with another method answers 405. */
export function registerV1Routes(app: FastifyInstance, services: Services): void {
  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/') || route.config?.public) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = routes.get(route.url) ?? new Set<string>();
    for (const method of methods) known.add(method);
    routes.set(route.url, known);
  });

  registerFlipperRoutes(app, services);
  registerRateAppliedActionsRoutes(app, services);
  registerLedgersRoutes(app, services);
  registerNotesRoutes(app, services);
  registerDocumentsRoutes(app, services);
  registerDocumentDownloadRoutes(app, services);
  registerMoveInsRoutes(app, services);
  registerInvoiceableItemsRoutes(app, services);
  registerRateChangesRoutes(app, services);
  registerPaymentRoutes(app, services);
  registerEsignRoutes(app, services);

  for (const [url, methods] of routes) {
    const allowed = METHODS.filter((m) => methods.has(m));
    const others = METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      config: { public: true },
      schema: { hide: true },
      handler: async (request, reply) =>
        reply
          .code(405)
          .header('Allow', allowed.join(', '))
          .send(
            errorEnvelope(request, {
              status: 405,
              errorCode: null,
              message: `${request.method} is not allowed here; use ${allowed.join(' or ')}`,
              problems: [],
            }),
          ),
    });
  }
}
