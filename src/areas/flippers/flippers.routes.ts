import { Type } from '@sinclair/typebox';
import { FLIPPERS_KEPT } from './flippers.kept';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk, sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { facilityIdParam, facilityParams } from '../../rest/schemas';
import { conditional, jsonResponses } from '../../rest/responses';
import type { FlippersService } from './flippers.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly flippers: FlippersService;
}

/** The contract's routes of this area (see ContractRoute). */
export const FLIPPER_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/:facility_id/flippers',
    {
      config: { kept: FLIPPERS_KEPT },
      schema: {
        summary: 'Enabled flippers of the facility and its company',
        tags: ['flippers'],
        operationId: 'listFlippers',
        response: conditional(
          jsonResponses('Names of the enabled flippers', {
            flippers: Type.Array(Type.String()),
          }),
        ),
        params: facilityParams,
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const flippers = await services.flippers.enabledFlippers(request.facility);
      return sendOkSerialized(request, reply, serializeFragment({ flippers }));
    },
    () => (request) => ({
      owner: request.facility,
      key: `${request.facility.id} ${request.facility.companyId}`,
    }),
  ),

  contractRoute(
    'GET',
    '/v1/:facility_id/flippers/:flipper_name',
    {
      schema: {
        summary: 'Whether one flipper is enabled for the facility',
        tags: ['flippers'],
        operationId: 'getFlipper',
        response: jsonResponses('One key, the flipper name: true when enabled', {}, Type.Boolean()),
        params: Type.Object({
          facility_id: facilityIdParam,
          flipper_name: Type.String({ minLength: 1, maxLength: 200 }),
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const name = request.params.flipper_name;
      const enabled = await services.flippers.isEnabled(facility, name);
      return sendOk(request, reply, { [name]: enabled });
    },
  ),
];
