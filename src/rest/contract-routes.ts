import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { DocumentPdfsService } from '../areas/documents/document-pdfs.service';
import type { DocumentsService } from '../areas/documents/documents.service';
import type { EsignService } from '../areas/esign/esign.service';
import type { FacilitiesService } from '../areas/facilities/facilities.service';
import type { FlippersService } from '../areas/flippers/flippers.service';
import type { InvoiceableItemsService } from '../areas/invoiceable-items/invoiceable-items.service';
import type { LedgersService } from '../areas/ledgers/ledgers.service';
import type { MoveInsService } from '../areas/move-ins/move-ins.service';
import type { NotesService } from '../areas/notes/notes.service';
import type { PaymentsService } from '../areas/payments/payments.service';
import type { RateAppliedActionsService } from '../areas/rate-applied-actions/rate-applied-actions.service';
import type { RateChangesService } from '../areas/rate-changes/rate-changes.service';
import type { PageCache } from '../caching/page-cache';

/**
 * The services the contract's handlers call, all together; each routes module names the few its
 * handlers use (its `RouteServices`), and a service one needs that is not here is added here.
 */
export interface ContractServices {
  readonly documentPdfs: DocumentPdfsService;
  readonly documents: DocumentsService;
  readonly esign: EsignService;
  readonly facilities: FacilitiesService;
  readonly flippers: FlippersService;
  readonly invoiceableItems: InvoiceableItemsService;
  readonly ledgers: LedgersService;
  readonly moveIns: MoveInsService;
  readonly notes: NotesService;
  readonly payments: PaymentsService;
  readonly rateAppliedActions: RateAppliedActionsService;
  readonly rateChanges: RateChangesService;
  /** Serialized list pages kept between requests while their data is unchanged. */
  readonly pages: PageCache;
}

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
  readonly handler: (services: ContractServices) => RouteHandlerMethod;
}

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

/** A contract route, its request typed by its schema (see ContractHandler). */
export function contractRoute<const Schema extends FastifySchema>(
  method: ContractRoute['method'],
  url: string,
  options: Omit<RouteShorthandOptions, 'schema'> & { schema: Schema },
  handler: (services: ContractServices) => ContractHandler<Schema>,
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
