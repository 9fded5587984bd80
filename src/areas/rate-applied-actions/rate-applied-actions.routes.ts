import { presentRateAppliedAction, type RateAppliedActionView } from './rate-applied-actions.presenter';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { KEPT_LISTS } from '../../caching/kept-lists';
import { sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { keptPage } from '../../rest/kept-pages';
import { facilityIdParam, queryString } from '../../rest/schemas';
import { conditional, jsonResponses, refTo } from '../../rest/openapi';

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

/** The contract's routes of this area (see ContractRoute). */
export const RATE_APPLIED_ACTIONS_ROUTES: readonly ContractRoute[] = [
  contractRoute<{ Params: FacilityParams; Querystring: RangeQuery }>(
    'GET',
    '/v1/:facility_id/rate_applied_actions',
    {
      config: { wrapper: 'rate_applied_action', kept: KEPT_LISTS.rateAppliedActions },
      schema: {
        summary: 'Rate applied actions completed in a date range (default: today at the facility)',
        tags: ['rate applied actions'],
        operationId: 'listRateAppliedActions',
        response: conditional(
          jsonResponses('Every rate applied action in the range', {
            rate_applied_actions: { type: 'array', items: refTo('RateAppliedAction') },
          }),
        ),
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
    (services) => async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const range = services.rateAppliedActions.range(facility, {
        startDate: request.query.start_date,
        endDate: request.query.end_date,
      });
      // The contract lists end_date before start_date in the echo.
      if (range.defaulted.endDate) request.envelope.defaults.end_date = range.endDate;
      if (range.defaulted.startDate) request.envelope.defaults.start_date = range.startDate;
      const page = await keptPage(
        request,
        services.pages,
        facility,
        `${facility.id} ${range.startDate} ${range.endDate}`,
        async () => {
          const actions = await services.rateAppliedActions.between(facility, range.startDate, range.endDate);
          return {
            bytes: serializeFragment({
              rate_applied_actions: actions.map((a) =>
                serializeRateAppliedAction(presentRateAppliedAction(a, facility.timeZone)),
              ),
            }),
            meta: null,
          };
        },
      );
      return sendOkSerialized(request, reply, page.bytes);
    },
  ),
];
