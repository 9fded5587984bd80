import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { RATE_CHANGE_UPDATES_KEPT } from './rate-changes.kept';
import * as RateChangeUpdate from './rate-change-update.contract';
import { RefTo } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOkSerialized } from '../../rest/envelope';
import { askedQuery } from '../../rest/kept-pages';
import { conditional, jsonResponses } from '../../rest/responses';
import { idParam, pageQuery, queryString } from '../../rest/schemas';
import type { PageCache } from '../../caching/page-cache';
import type { RateChangesService } from './rate-changes.service';
import type { RateChangeUpdatesRequest } from './rate-changes.types';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly pages: PageCache;
  readonly rateChanges: RateChangesService;
}

const LIST_OPEN = Buffer.from('"rate_change_updates":[');
const LIST_CLOSE = Buffer.from(']');

/** The defaults the query was read with, and its filters, in the envelope's echo. */
function echoQuery(request: FastifyRequest, query: RateChangeUpdatesRequest): void {
  Object.assign(request.envelope.defaults, query.defaults);
  request.envelope.extraMeta = { filters: query.filters, sorting: null, search_term: null };
}

/** The contract's routes of this area (see ContractRoute). */
export const RATE_CHANGES_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/companies/:company_id/rate_change_updates',
    {
      config: { kept: RATE_CHANGE_UPDATES_KEPT },
      schema: {
        summary: 'Units of the company whose rate changed in a time window',
        description:
          'updated_after <= changed_at < updated_before. Sorted by facility name, tenant name ' +
          '(case-insensitive), changed_at, then id.',
        tags: ['rate change updates'],
        operationId: 'listRateChangeUpdates',
        response: conditional(
          jsonResponses('One page of rate changes, with meta.filters, sorting and search_term', {
            rate_change_updates: Type.Array(RefTo(RateChangeUpdate.schema)),
          }),
        ),
        params: Type.Object({ company_id: idParam('Company id (UUID)') }),
        querystring: Type.Object({
          updated_after: queryString('Start of the window, inclusive: ISO 8601 with a UTC offset (required)'),
          updated_before: queryString('End of the window, exclusive: ISO 8601 with a UTC offset (required)'),
          created_by: queryString('Only rate changes made by this user id (integer)', 20),
          ...pageQuery,
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const query = askedQuery<RateChangeUpdatesRequest>(request);
      // Each rate change is kept as the contract lists it (RateChangeUpdate.listing): the page is
      // their texts, joined by the database.
      const { listings, pagination } = await services.rateChanges.listingPage(query);
      echoQuery(request, query);
      return sendOkSerialized(request, reply, [LIST_OPEN, listings, LIST_CLOSE], pagination);
    },
    (services: RouteServices) => (request) => {
      const { updated_after, updated_before, created_by, page, per_page } = request.query;
      const query = services.rateChanges.readQuery(request.company, {
        updatedAfter: updated_after,
        updatedBefore: updated_before,
        createdBy: created_by,
        page,
        perPage: per_page,
      });
      return { owner: request.company, key: query.key, query, echo: () => echoQuery(request, query) };
    },
  ),
];
