import { Type } from '@sinclair/typebox';
import * as MoveInReview from './move-in-review.contract';
import { Nullable, RefTo } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk } from '../../rest/envelope';
import { jsonResponses } from '../../rest/responses';
import { facilityParams } from '../../rest/schemas';
import type { MoveInsService } from './move-ins.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly moveIns: MoveInsService;
}

/** REST's names of the review command's fields. */
const MOVE_IN_NAMES = {
  unitId: 'move_in.unit_id',
  tenantId: 'move_in.tenant_id',
  moveInDate: 'move_in.move_in_date',
};

const optionalString = (description: string) => Type.Optional(Nullable(Type.String({ description })));

/** The contract's routes of this area (see ContractRoute). */
export const MOVE_INS_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'POST',
    '/v1/:facility_id/move_ins/review_cost',
    {
      config: { names: MOVE_IN_NAMES },
      schema: {
        summary: 'Cost of a move-in and its documents, kept as a session for 24 hours',
        description:
          'Saves nothing but the session. Each document downloads from ' +
          'GET /v1/:facility_id/documents/:session_document_id/session/:session_id until expires_at.',
        tags: ['move-ins'],
        operationId: 'reviewMoveInCost',
        response: jsonResponses("The move-in's cost and documents, and its session", {
          move_in: RefTo(MoveInReview.schema),
        }),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: facilityParams,
        // Types only, for the OpenAPI document; the move-ins service checks every rule.
        body: Type.Object({
          move_in: Type.Object({
            unit_id: optionalString('Unit id (UUID), required'),
            tenant_id: optionalString('Tenant id (UUID), optional'),
            move_in_date: optionalString('YYYY-MM-DD, today or later (default: today at the facility)'),
          }),
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const { move_in: moveIn } = request.body;
      const review = await services.moveIns.review(facility, {
        unitId: moveIn.unit_id,
        tenantId: moveIn.tenant_id,
        moveInDate: moveIn.move_in_date,
      });
      return sendOk(request, reply, {
        move_in: MoveInReview.toContract(review, facility.timeZone),
      });
    },
  ),
];
