import type { FastifyInstance } from 'fastify';
import type { MoveInReview } from '../domain/move-ins/move-ins.types';
import { centsToAmount } from '../domain/shared/money';
import { formatInstant } from '../domain/shared/time';
import type { Services } from '../services';
import { sendOk } from './envelope';
import { facilityIdParam } from './schemas';

interface FacilityParams {
  facility_id: string;
}

interface ReviewCostBody {
  move_in?: unknown;
}

/** The review answer (DESIGN 6, Move-in review): instants in the facility's zone, money in units. */
export function serializeMoveInReview(review: MoveInReview, timeZone: string) {
  const { session, documents } = review;
  return {
    session_id: session.id,
    expires_at: formatInstant(session.expiresAt, timeZone),
    unit_id: session.unitId,
    tenant_id: session.tenantId,
    move_in_date: session.moveInDate,
    cost: {
      rent: centsToAmount(session.cost.rentCents),
      fees: session.cost.fees.map((fee) => ({
        id: fee.id,
        description: fee.description,
        amount: centsToAmount(fee.amountCents),
      })),
      total: centsToAmount(session.cost.totalCents),
    },
    documents: documents.map((document) => ({
      session_document_id: document.id,
      description: document.description,
      type: document.type,
      is_relevant: document.isRelevant,
      created_at: formatInstant(document.createdAt, timeZone),
    })),
  };
}

const optionalString = (description: string) => ({ type: 'string', nullable: true, description }) as const;

export function registerMoveInsRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: FacilityParams; Body: ReviewCostBody }>(
    '/v1/:facility_id/move_ins/review_cost',
    {
      schema: {
        summary: 'Cost of a move-in and its documents, kept as a session for 24 hours',
        description:
          'Saves nothing but the session. Each document downloads from ' +
          'GET /v1/:facility_id/documents/:session_document_id/session/:session_id until expires_at.',
        tags: ['move-ins'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: { type: 'object', properties: { facility_id: facilityIdParam }, required: ['facility_id'] },
        // Types only, for the OpenAPI document; the move-ins service checks every rule.
        body: {
          type: 'object',
          properties: {
            move_in: {
              type: 'object',
              properties: {
                unit_id: optionalString('Unit id (UUID), required'),
                tenant_id: optionalString('Tenant id (UUID), optional'),
                move_in_date: optionalString('YYYY-MM-DD, today or later (default: today at the facility)'),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const review = await services.moveIns.reviewCost(facility, { move_in: request.body?.move_in });
      return sendOk(request, reply, { move_in: serializeMoveInReview(review, facility.timeZone) });
    },
  );
}
