import { Type } from '@sinclair/typebox';
import { RATE_APPLIED_ACTIONS_KEPT } from './rate-applied-actions.kept';
import * as RateAppliedAction from './rate-applied-action.contract';
import { RefTo } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOkSerialized, serializeFragment } from '../../rest/envelope';
import { askedQuery } from '../../rest/kept-pages';
import { conditional, jsonResponses } from '../../rest/responses';
import { facilityParams, queryString } from '../../rest/schemas';
import type { PageCache } from '../../caching/page-cache';
import type { RateAppliedActionsService } from './rate-applied-actions.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly pages: PageCache;
  readonly rateAppliedActions: RateAppliedActionsService;
}

/** The dates a request asks for (today at the facility by default). */
type DateRange = ReturnType<RateAppliedActionsService['range']>;

/** The contract's routes of this area (see ContractRoute). */
export const RATE_APPLIED_ACTIONS_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/:facility_id/rate_applied_actions',
    {
      config: { wrapper: 'rate_applied_action', kept: RATE_APPLIED_ACTIONS_KEPT },
      schema: {
        summary: 'Rate applied actions completed in a date range (default: today at the facility)',
        tags: ['rate applied actions'],
        operationId: 'listRateAppliedActions',
        response: conditional(
          jsonResponses('Every rate applied action in the range', {
            rate_applied_actions: Type.Array(RefTo(RateAppliedAction.schema)),
          }),
        ),
        params: facilityParams,
        querystring: Type.Object({
          start_date: queryString('First completed_on date, YYYY-MM-DD (default today)'),
          end_date: queryString('Last completed_on date, YYYY-MM-DD (default today)'),
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const { facility } = request;
      const range = askedQuery<DateRange>(request);
      const actions = await services.rateAppliedActions.between(facility, range.startDate, range.endDate);
      const fragment = serializeFragment({
        rate_applied_actions: actions.map((a) => RateAppliedAction.toContract(a, facility.timeZone)),
      });
      return sendOkSerialized(request, reply, fragment);
    },
    (services: RouteServices) => (request) => {
      const range = services.rateAppliedActions.range(request.facility, {
        startDate: request.query.start_date,
        endDate: request.query.end_date,
      });
      // The contract lists end_date before start_date in the echo.
      if (range.defaulted.endDate) request.envelope.defaults.end_date = range.endDate;
      if (range.defaulted.startDate) request.envelope.defaults.start_date = range.startDate;
      return {
        owner: request.facility,
        key: `${request.facility.id} ${range.startDate} ${range.endDate}`,
        query: range,
      };
    },
  ),
];
