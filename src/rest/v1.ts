import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
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

/** Every /v1 path of the contract (a known path with another method answers 405: see KnownRoutes). */
export function registerV1Routes(app: FastifyInstance, services: Services): void {
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
}
