import type { FastifyInstance } from 'fastify';
import type { LedgerDiscount, LedgerInsurance, LedgerService } from '../domain/ledgers/ledgers.types';
import type { Services } from '../services';
import { sendOk } from './envelope';
import { facilityIdParam, idParam } from './schemas';

interface LedgerParams {
  facility_id: string;
  ledger_id: string;
}

/** Contract 2.4 insurance object. */
export function serializeInsurance(insurance: LedgerInsurance) {
  return {
    id: insurance.id,
    effective_date: insurance.effectiveDate,
    cancel_date: insurance.cancelDate,
    data: {
      description: insurance.description,
      retain_type: insurance.retainType,
      product_code: insurance.productCode,
      policy_number: insurance.policyNumber,
      retain_amount: insurance.retainAmount,
      coverage_amount: insurance.coverageAmount,
      coverage_percentage: insurance.coveragePercentage,
      insurance_provider_key: insurance.insuranceProviderKey,
    },
    amount: insurance.amount,
  };
}

/** Contract 2.4 service object. */
export function serializeService(service: LedgerService) {
  return {
    id: service.id,
    effective_date: service.effectiveDate,
    cancel_date: service.cancelDate,
    data: { description: service.description, product_code: service.productCode },
    amount: service.amount,
  };
}

/** Contract 2.4 discount object. */
export function serializeDiscount(discount: LedgerDiscount) {
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

export function registerLedgersRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Params: LedgerParams }>(
    '/v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts',
    {
      schema: {
        summary: "A ledger's current insurance, and its services and discounts",
        tags: ['ledgers'],
        params: {
          type: 'object',
          properties: { facility_id: facilityIdParam, ledger_id: idParam('Ledger id (UUID)') },
          required: ['facility_id', 'ledger_id'],
        },
      },
    },
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const result = await services.ledgers.insuranceServicesAndDiscounts(facility, request.params.ledger_id);
      return sendOk(request, reply, {
        insurance: result.insurance ? serializeInsurance(result.insurance) : null,
        services: result.services.map(serializeService),
        discounts: result.discounts.map(serializeDiscount),
      });
    },
  );
}
