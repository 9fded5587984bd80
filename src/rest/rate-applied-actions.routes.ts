import type { FastifyInstance } from 'fastify';
import {
  presentRateAppliedAction,
  type RateAppliedActionView,
} from '../presenters/rate-applied-actions.presenter';
import type { Services } from '../services';
import { sendOk } from './envelope';
import { facilityIdParam, queryString } from './schemas';
import { jsonResponses, refTo } from './openapi';

interface FacilityParams {
  facility_id: string;
}

interface RangeQuery {
  start_date?: string;
  end_date?: string;
}

/** Contract 2.3, fields in the contract's order. */
export function serializeRateAppliedAction(action: RateAppliedActionView) {
  return {
    rate_info: {
      applied_rate: { name: action.rateInfo.appliedRate.name, amount: action.rateInfo.appliedRate.amount },
      standard_rate: action.rateInfo.standardRate,
    },
    source: action.source,
    completed_on: action.completedOn,
    completed_by: action.completedBy,
    employee_id: action.employeeId,
    user_id: action.userId,
    time_completed: action.timeCompleted,
    event: action.event,
    old_ledger_id: action.oldLedgerId,
    new_ledger_id: action.newLedgerId,
    unit_id: action.unitId,
    lead_id: action.leadId,
  };
}

export function registerRateAppliedActionsRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Params: FacilityParams; Querystring: RangeQuery }>(
    '/v1/:facility_id/rate_applied_actions',
    {
      config: { wrapper: 'rate_applied_action' },
      schema: {
        summary: 'Rate applied actions completed in a date range (default: today at the facility)',
        tags: ['rate applied actions'],
        operationId: 'listRateAppliedActions',
        response: jsonResponses('Every rate applied action in the range', {
          rate_applied_actions: { type: 'array', items: refTo('RateAppliedAction') },
        }),
        params: { type: 'object', properties: { facility_id: facilityIdParam }, required: ['facility_id'] },
        querystring: {
          type: 'object',
          properties: {
            start_date: queryString('First completed_on date, YYYY-MM-DD (default today)'),
            end_date: queryString('Last completed_on date, YYYY-MM-DD (default today)'),
          },
        },
      },
    },
    async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const result = await services.rateAppliedActions.list(facility, {
        startDate: request.query.start_date,
        endDate: request.query.end_date,
      });
      // The contract lists end_date before start_date in the echo.
      if (result.defaulted.endDate) request.envelope.defaults.end_date = result.endDate;
      if (result.defaulted.startDate) request.envelope.defaults.start_date = result.startDate;
      return sendOk(request, reply, {
        rate_applied_actions: result.actions.map((a) =>
          serializeRateAppliedAction(presentRateAppliedAction(a, facility.timeZone)),
        ),
      });
    },
  );
}
