import {
  presentDiscount,
  presentInsurance,
  presentService,
  type LedgerDiscountView,
  type LedgerInsuranceView,
  type LedgerServiceView,
} from './ledgers.presenter';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { KEPT_LISTS } from '../../caching/kept-lists';
import { sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { keptPage } from '../../rest/kept-pages';
import { facilityIdParam, idParam } from '../../rest/schemas';
import { conditional, jsonResponses, nullableRefTo, refTo } from '../../rest/openapi';

interface LedgerParams {
  facility_id: string;
  ledger_id: string;
}

/** Contract 2.4 insurance object. */
export function serializeInsurance(insurance: LedgerInsuranceView) {
  const data = insurance.data;
  return {
    id: insurance.id,
    effective_date: insurance.effectiveDate,
    cancel_date: insurance.cancelDate,
    data: {
      description: data.description,
      retain_type: data.retainType,
      product_code: data.productCode,
      policy_number: data.policyNumber,
      retain_amount: data.retainAmount,
      coverage_amount: data.coverageAmount,
      coverage_percentage: data.coveragePercentage,
      insurance_provider_key: data.insuranceProviderKey,
    },
    amount: insurance.amount,
  };
}

/** Contract 2.4 service object. */
export function serializeService(service: LedgerServiceView) {
  return {
    id: service.id,
    effective_date: service.effectiveDate,
    cancel_date: service.cancelDate,
    data: { description: service.data.description, product_code: service.data.productCode },
    amount: service.amount,
  };
}

/** Contract 2.4 discount object. */
export function serializeDiscount(discount: LedgerDiscountView) {
  return {
    id: discount.id,
    name: discount.name,
    kind: discount.kind,
    description: discount.description,
    start_date: discount.startDate,
    end_date: discount.endDate,
    min_occupancy_months: discount.minOccupancyMonths,
  };
}

/** The contract's routes of this area (see ContractRoute). */
export const LEDGERS_ROUTES: readonly ContractRoute[] = [
  contractRoute<{ Params: LedgerParams }>(
    'GET',
    '/v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts',
    {
      config: { kept: KEPT_LISTS.ledgers },
      schema: {
        summary: "A ledger's current insurance, and its services and discounts",
        tags: ['ledgers'],
        operationId: 'getLedger',
        response: conditional(
          jsonResponses("The ledger's current insurance (or null), services and discounts", {
            insurance: nullableRefTo('LedgerInsurance'),
            services: { type: 'array', items: refTo('LedgerService') },
            discounts: { type: 'array', items: refTo('LedgerDiscount') },
          }),
        ),
        params: {
          type: 'object',
          properties: { facility_id: facilityIdParam, ledger_id: idParam('Ledger id (UUID)') },
          required: ['facility_id', 'ledger_id'],
        },
      },
    },
    (services) => async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const ledgerId = request.params.ledger_id;
      // The current insurance is today's at the facility: a new day, a new page.
      const key = `${facility.id} ${ledgerId} ${services.facilities.today(facility)}`;
      const page = await keptPage(request, services.pages, facility, key, async () => {
        const result = await services.ledgers.insuranceServicesAndDiscounts(facility, ledgerId);
        return {
          bytes: serializeFragment({
            insurance: result.insurance ? serializeInsurance(presentInsurance(result.insurance)) : null,
            services: result.services.map((service) => serializeService(presentService(service))),
            discounts: result.discounts.map((discount) => serializeDiscount(presentDiscount(discount))),
          }),
          meta: null,
        };
      });
      return sendOkSerialized(request, reply, page.bytes);
    },
  ),
];
