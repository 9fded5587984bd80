import type { FastifyInstance } from 'fastify';
import { ITEM_PAGE_LIMITS } from '../domain/invoiceable-items/invoiceable-items.service';
import type { InvoiceableItemList, PricedItem } from '../domain/invoiceable-items/invoiceable-items.types';
import { parsePageRequest } from '../domain/shared/pagination';
import { presentInvoiceableItem, type InvoiceableItemView } from '../presenters/invoiceable-items.presenter';
import { KEPT_LISTS } from '../caching/kept-lists';
import type { Services } from '../services';
import { sendOk, sendOkSerialized, serializeFragment } from './envelope';
import { keptPage } from './kept-pages';
import { facilityIdParam, pageQuery } from './schemas';
import { conditional, jsonResponses, nullableRefTo, refTo } from './openapi';

interface FacilityParams {
  facility_id: string;
}

interface PageQuery {
  page?: string;
  per_page?: string;
}

/** Contract 2.7, fields in the contract's order; insurance and retail items add their own. */
export function serializeInvoiceableItem(item: InvoiceableItemView): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: item.id,
    product_code: item.productCode,
    kind: item.kind,
    description: item.description,
    required_at_move_in: item.requiredAtMoveIn,
    required_at_transfer: item.requiredAtTransfer,
    amount: item.amount,
    short_description: item.shortDescription,
    show_in_sales_center: item.showInSalesCenter,
    tax_total: item.taxTotal,
    total: item.total,
    invoiceable_amounts: item.invoiceableAmounts.map((tier) => ({
      id: tier.id,
      amount: tier.amount,
      kind: tier.kind,
      limit: tier.limit,
    })),
  };
  if (item.insurance) {
    out.coverage_amount = item.insurance.coverageAmount;
    out.coverage_percentage = item.insurance.coveragePercentage;
    out.provider_name = item.insurance.providerName;
    out.provider_key = item.insurance.providerKey;
  }
  if (item.retail) {
    out.quantity = item.retail.quantity;
    out.is_rental_center_lock = item.retail.isRentalCenterLock;
  }
  return out;
}

const serializePricedItem = (item: PricedItem) => serializeInvoiceableItem(presentInvoiceableItem(item));

const facilityParams = {
  type: 'object',
  properties: { facility_id: facilityIdParam },
  required: ['facility_id'],
} as const;

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

const oneFee = nullableRefTo('InvoiceableItem');
const someFees = { type: 'array', items: refTo('InvoiceableItem') };
/** The fee groups of GET /invoiceable_items/fees. */
const feesSchema = {
  type: 'object',
  required: ['security_deposit', 'online_payment', 'reservation', 'move_in_fees', 'transfer_fees', 'other'],
  properties: {
    security_deposit: oneFee,
    online_payment: oneFee,
    reservation: oneFee,
    move_in_fees: someFees,
    transfer_fees: someFees,
    other: someFees,
  },
};

export function registerInvoiceableItemsRoutes(app: FastifyInstance, services: Services): void {
  for (const { path, list, summary, operationId } of LISTS) {
    app.get<{ Params: FacilityParams; Querystring: PageQuery }>(
      `/v1/:facility_id/invoiceable_items${path}`,
      {
        config: { wrapper: 'invoiceable_item', kept: KEPT_LISTS.invoiceableItems },
        schema: {
          summary,
          tags: ['invoiceable items'],
          operationId,
          response: conditional(
            jsonResponses(`${summary}, one page`, {
              invoiceable_items: { type: 'array', items: refTo('InvoiceableItem') },
            }),
          ),
          params: facilityParams,
          querystring: { type: 'object', properties: pageQuery },
        },
      },
      async (request, reply) => {
        const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
        const pageRequest = parsePageRequest(
          { page: request.query.page, perPage: request.query.per_page },
          ITEM_PAGE_LIMITS,
        );
        const key = `${facility.id} ${pageRequest.page} ${pageRequest.perPage}`;
        const page = await keptPage(request, services.pages, facility, key, async () => {
          const result = await services.invoiceableItems.listPage(facility, list, pageRequest);
          const bytes = serializeFragment({
            invoiceable_items: result.entries.map(serializePricedItem),
          });
          return { bytes, meta: result.pagination };
        });
        request.envelope.defaults = { page: page.meta.current_page, per_page: page.meta.per_page };
        return sendOkSerialized(request, reply, page.bytes, page.meta);
      },
    );
  }

  app.get<{ Params: FacilityParams }>(
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
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const groups = await services.invoiceableItems.fees(facility);
      const one = (fee: PricedItem | null) => (fee ? serializePricedItem(fee) : null);
      return sendOk(request, reply, {
        fees: {
          security_deposit: one(groups.securityDeposit),
          online_payment: one(groups.onlinePayment),
          reservation: one(groups.reservation),
          move_in_fees: groups.moveInFees.map(serializePricedItem),
          transfer_fees: groups.transferFees.map(serializePricedItem),
          other: groups.other.map(serializePricedItem),
        },
      });
    },
  );
}
