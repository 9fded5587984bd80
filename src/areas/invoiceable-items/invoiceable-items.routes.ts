import { Type } from '@sinclair/typebox';
import { INVOICEABLE_ITEMS_KEPT } from './invoiceable-items.kept';
import * as InvoiceableItem from './invoiceable-item.contract';
import { NullableRefTo, RefTo } from '../../contract/kit';
import { ITEM_PAGE_LIMITS } from './invoiceable-items.service';
import type { InvoiceableItemList, PricedItem } from './invoiceable-items.types';
import type { FastifyRequest } from 'fastify';
import { parsePageRequest, type PageMeta, type PageRequest } from '../../kernel/pagination';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk, sendOkSerialized } from '../../rest/envelope';
import { askedQuery } from '../../rest/kept-pages';
import { conditional, jsonResponses } from '../../rest/responses';
import { facilityParams, pageQuery } from '../../rest/schemas';
import type { InvoiceableItemsService } from './invoiceable-items.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly invoiceableItems: InvoiceableItemsService;
}

const LIST_OPEN = Buffer.from('"invoiceable_items":[');
const LIST_CLOSE = Buffer.from(']');

/** Paginated lists, each a static path so none is taken for another route's parameter. */
const LISTS: Array<{ path: string; list: InvoiceableItemList; summary: string; operationId: string }> = [
  {
    path: '',
    list: 'all',
    summary: 'Every invoiceable item: fees, insurance, services, retail',
    operationId: 'listInvoiceableItems',
  },
  { path: '/insurance', list: 'insurance', summary: 'Insurance items', operationId: 'listInsuranceItems' },
  { path: '/services', list: 'services', summary: 'Service items', operationId: 'listServiceItems' },
  { path: '/retail', list: 'retail', summary: 'Retail items', operationId: 'listRetailItems' },
  {
    path: '/rental_center',
    list: 'rental_center',
    summary: 'Retail items sold in the rental center',
    operationId: 'listRentalCenterItems',
  },
];

const oneFee = NullableRefTo(InvoiceableItem.schema);
const someFees = Type.Array(RefTo(InvoiceableItem.schema));
/** The fee groups of GET /invoiceable_items/fees. */
const feesSchema = Type.Object({
  security_deposit: oneFee,
  online_payment: oneFee,
  reservation: oneFee,
  move_in_fees: someFees,
  transfer_fees: someFees,
  other: someFees,
});

/** The page and its size echoed with the values used, as the page's pagination has them. */
function echoPage(request: FastifyRequest, meta: PageMeta): void {
  request.envelope.defaults = { page: meta.current_page, per_page: meta.per_page };
}

/** The contract's routes of this area (see ContractRoute). */
export const INVOICEABLE_ITEMS_ROUTES: readonly ContractRoute<RouteServices>[] = [
  ...LISTS.map(({ path, list, summary, operationId }) =>
    contractRoute(
      'GET',
      `/v1/:facility_id/invoiceable_items${path}`,
      {
        config: { wrapper: 'invoiceable_item', kept: INVOICEABLE_ITEMS_KEPT },
        schema: {
          summary,
          tags: ['invoiceable items'],
          operationId,
          response: conditional(
            jsonResponses(`${summary}, one page`, {
              invoiceable_items: Type.Array(RefTo(InvoiceableItem.schema)),
            }),
          ),
          params: facilityParams,
          querystring: Type.Object(pageQuery),
        },
      },
      (services: RouteServices) => async (request, reply) => {
        // Each item is kept as the contract lists it (InvoiceableItem.listing): the page is their
        // texts, joined by the database.
        const { listings, pagination } = await services.invoiceableItems.listingPage(
          request.facility,
          list,
          askedQuery<PageRequest>(request),
        );
        echoPage(request, pagination);
        return sendOkSerialized(request, reply, [LIST_OPEN, listings, LIST_CLOSE], pagination);
      },
      () => (request) => {
        const asked = parsePageRequest(
          { page: request.query.page, perPage: request.query.per_page },
          ITEM_PAGE_LIMITS,
        );
        return {
          owner: request.facility,
          key: `${request.facility.id} ${asked.page} ${asked.perPage}`,
          query: asked,
          echo: (meta) => echoPage(request, meta!),
        };
      },
    ),
  ),

  contractRoute(
    'GET',
    '/v1/:facility_id/invoiceable_items/fees',
    {
      config: { wrapper: 'invoiceable_item' },
      schema: {
        summary: 'Fee items grouped by fee category',
        tags: ['invoiceable items'],
        operationId: 'listFees',
        response: jsonResponses('Fee items by category', { fees: feesSchema }),
        params: facilityParams,
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const groups = await services.invoiceableItems.fees(facility);
      const one = (fee: PricedItem | null) => (fee ? InvoiceableItem.toContract(fee) : null);
      return sendOk(request, reply, {
        fees: {
          security_deposit: one(groups.securityDeposit),
          online_payment: one(groups.onlinePayment),
          reservation: one(groups.reservation),
          move_in_fees: groups.moveInFees.map(InvoiceableItem.toContract),
          transfer_fees: groups.transferFees.map(InvoiceableItem.toContract),
          other: groups.other.map(InvoiceableItem.toContract),
        },
      });
    },
  ),
];
