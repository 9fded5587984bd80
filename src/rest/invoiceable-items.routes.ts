import type { FastifyInstance } from 'fastify';
import { displayAmount, ITEM_PAGE_LIMITS } from '../domain/invoiceable-items/invoiceable-items.service';
import { parsePageRequest } from '../domain/shared/pagination';
import type { InvoiceableItemList, PricedItem } from '../domain/invoiceable-items/invoiceable-items.types';
import { centsToAmount } from '../domain/shared/money';
import type { Services } from '../services';
import { sendOk, sendOkSerialized, serializeFragment } from './envelope';
import { facilityIdParam, pageQuery } from './schemas';

interface FacilityParams {
  facility_id: string;
}

interface PageQuery {
  page?: string;
  per_page?: string;
}

/** Contract 2.7, fields in the contract's order; insurance and retail items add their own. */
export function serializeInvoiceableItem({ item, tiers }: PricedItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: item.id,
    product_code: item.productCode,
    kind: item.kind,
    description: item.description,
    required_at_move_in: item.requiredAtMoveIn,
    required_at_transfer: item.requiredAtTransfer,
    amount: displayAmount(item, tiers),
    short_description: item.shortDescription,
    show_in_sales_center: item.showInSalesCenter,
    tax_total: centsToAmount(item.taxTotalCents),
    total: centsToAmount(item.totalCents),
    invoiceable_amounts: tiers.map((tier) => ({
      id: tier.id,
      amount: centsToAmount(tier.amountHundredths),
      kind: tier.kind,
      limit: tier.limit,
    })),
  };
  if (item.kind === 'insurance') {
    out.coverage_amount = item.coverageAmountCents === null ? null : centsToAmount(item.coverageAmountCents);
    out.coverage_percentage = item.coveragePercentage;
    out.provider_name = item.providerName;
    out.provider_key = item.providerKey;
  }
  if (item.kind === 'retail') {
    out.quantity = item.quantity;
    out.is_rental_center_lock = item.isRentalCenterLock;
  }
  return out;
}

const facilityParams = {
  type: 'object',
  properties: { facility_id: facilityIdParam },
  required: ['facility_id'],
} as const;

/** Paginated lists, each a static path so none is taken for another route's parameter. */
const LISTS: Array<{ path: string; list: InvoiceableItemList; summary: string }> = [
  { path: '', list: 'all', summary: 'Every invoiceable item: fees, insurance, services, retail' },
  { path: '/insurance', list: 'insurance', summary: 'Insurance items' },
  { path: '/services', list: 'services', summary: 'Service items' },
  { path: '/retail', list: 'retail', summary: 'Retail items' },
  { path: '/rental_center', list: 'rental_center', summary: 'Retail items sold in the rental center' },
];

export function registerInvoiceableItemsRoutes(app: FastifyInstance, services: Services): void {
  for (const { path, list, summary } of LISTS) {
    app.get<{ Params: FacilityParams; Querystring: PageQuery }>(
      `/v1/:facility_id/invoiceable_items${path}`,
      {
        config: { wrapper: 'invoiceable_item' },
        schema: {
          summary,
          tags: ['invoiceable items'],
          params: facilityParams,
          querystring: { type: 'object', properties: pageQuery },
        },
      },
      async (request, reply) => {
        const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
        const pageRequest = parsePageRequest(request.query, ITEM_PAGE_LIMITS);
        const key = `rest invoiceable_items ${facility.id} ${list} ${pageRequest.page} ${pageRequest.perPage}`;
        const page = await services.pages.get(`items:${facility.id}`, key, async () => {
          const result = await services.invoiceableItems.listPage(facility, list, pageRequest);
          const bytes = serializeFragment({
            invoiceable_items: result.entries.map(serializeInvoiceableItem),
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
        params: facilityParams,
      },
    },
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const groups = await services.invoiceableItems.fees(facility);
      const one = (fee: PricedItem | null) => (fee ? serializeInvoiceableItem(fee) : null);
      return sendOk(request, reply, {
        fees: {
          security_deposit: one(groups.securityDeposit),
          online_payment: one(groups.onlinePayment),
          reservation: one(groups.reservation),
          move_in_fees: groups.moveInFees.map(serializeInvoiceableItem),
          transfer_fees: groups.transferFees.map(serializeInvoiceableItem),
          other: groups.other.map(serializeInvoiceableItem),
        },
      });
    },
  );
}
