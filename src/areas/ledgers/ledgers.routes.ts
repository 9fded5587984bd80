import { Type } from '@sinclair/typebox';
import { LEDGERS_KEPT } from './ledgers.kept';
import { LedgerInsurance, LedgerService } from './ledger-charges.contract';
import * as LedgerDiscount from './ledger-discount.contract';
import { NullableRefTo, RefTo } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { conditional, jsonResponses } from '../../rest/responses';
import { facilityIdParam, idParam } from '../../rest/schemas';
import type { FacilityAccess } from '../facilities/facilities.ports';
import type { LedgersService } from './ledgers.service';
import type { LedgerInsuranceServicesAndDiscounts } from './ledgers.types';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly facilities: FacilityAccess;
  readonly ledgers: LedgersService;
}

/** The answer's members as the contract lists them (4.4), serialized as sendOkSerialized takes them. */
export function chargesFragment(result: LedgerInsuranceServicesAndDiscounts): Buffer {
  return serializeFragment({
    insurance: result.insurance ? LedgerInsurance.toContract(result.insurance) : null,
    services: result.services.map(LedgerService.toContract),
    discounts: result.discounts.map(LedgerDiscount.toContract),
  });
}

/** The contract's routes of this area (see ContractRoute). */
export const LEDGERS_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts',
    {
      config: { kept: LEDGERS_KEPT },
      schema: {
        summary: "A ledger's current insurance, and its services and discounts",
        tags: ['ledgers'],
        operationId: 'getLedger',
        response: conditional(
          jsonResponses("The ledger's current insurance (or null), services and discounts", {
            insurance: NullableRefTo(LedgerInsurance.schema),
            services: Type.Array(RefTo(LedgerService.schema)),
            discounts: Type.Array(RefTo(LedgerDiscount.schema)),
          }),
        ),
        params: Type.Object({ facility_id: facilityIdParam, ledger_id: idParam('Ledger id (UUID)') }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const result = await services.ledgers.insuranceServicesAndDiscounts(
        request.facility,
        request.params.ledger_id,
      );
      return sendOkSerialized(request, reply, chargesFragment(result));
    },
    // The current insurance is today's at the facility: a new day, a new page.
    (services: RouteServices) => (request) => ({
      owner: request.facility,
      key: `${request.facility.id} ${request.params.ledger_id} ${services.facilities.today(request.facility)}`,
    }),
  ),
];
