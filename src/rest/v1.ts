import type { FastifyInstance } from 'fastify';
import { registerContractRoutes, type ContractRoute, type ContractServices } from './contract-routes';
import { DOCUMENT_DOWNLOAD_ROUTES } from '../areas/documents/document-downloads.routes';
import { DOCUMENTS_ROUTES } from '../areas/documents/documents.routes';
import { ESIGN_ROUTES } from '../areas/esign/esign.routes';
import { FLIPPER_ROUTES } from '../areas/flippers/flippers.routes';
import { INVOICEABLE_ITEMS_ROUTES } from '../areas/invoiceable-items/invoiceable-items.routes';
import { LEDGERS_ROUTES } from '../areas/ledgers/ledgers.routes';
import { MOVE_INS_ROUTES } from '../areas/move-ins/move-ins.routes';
import { NOTES_ROUTES } from '../areas/notes/notes.routes';
import { PAYMENT_ROUTES } from '../areas/payments/payments.routes';
import { RATE_APPLIED_ACTIONS_ROUTES } from '../areas/rate-applied-actions/rate-applied-actions.routes';
import { RATE_CHANGES_ROUTES } from '../areas/rate-changes/rate-changes.routes';

/** Every /v1 path of the contract (a known path with another method answers 405: see KnownRoutes). */
export const CONTRACT_ROUTES: readonly ContractRoute[] = [
  ...FLIPPER_ROUTES,
  ...RATE_APPLIED_ACTIONS_ROUTES,
  ...LEDGERS_ROUTES,
  ...NOTES_ROUTES,
  ...DOCUMENTS_ROUTES,
  ...DOCUMENT_DOWNLOAD_ROUTES,
  ...MOVE_INS_ROUTES,
  ...INVOICEABLE_ITEMS_ROUTES,
  ...RATE_CHANGES_ROUTES,
  ...PAYMENT_ROUTES,
  ...ESIGN_ROUTES,
];

/** The system of record's /v1: every contract route answered from the services. */
export function registerV1Routes(app: FastifyInstance, services: ContractServices): void {
  registerContractRoutes(app, CONTRACT_ROUTES, (route) => route.handler(services));
}
