import { Type } from '@sinclair/typebox';
import { FLIPPERS_KEPT } from './flippers.kept';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk, sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { keptPage, keptPageNow } from '../../rest/kept-pages';
import { facilityIdParam, facilityParams } from '../../rest/schemas';
import { conditional, jsonResponses } from '../../rest/responses';
import type { Facility } from '../facilities/facilities.types';
import type { FlippersService } from './flippers.service';
import type { PageCache } from '../../caching/page-cache';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly flippers: FlippersService;
  readonly pages: PageCache;
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
      const facility = request.facility;
      const key = `${facility.id} ${facility.companyId}`;
      const page =
        keptPageNow<Facility, null>(request, services.pages, facility, key) ??
        (await keptPage(request, services.pages, facility, key, async () => ({
          bytes: serializeFragment({ flippers: await services.flippers.enabledFlippers(facility) }),
          meta: null,
        })));
      return sendOkSerialized(request, reply, page.bytes);
    },
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
        params: Type.Object({ facility_id: facilityIdParam, flipper_name: Type.String({ maxLength: 200 }) }),
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
