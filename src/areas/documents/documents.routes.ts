import { presentDocument, serializeEventDocument } from './documents.presenter';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk } from '../../rest/envelope';
import { facilityIdParam, idParam, pageQuery } from '../../rest/schemas';
import { jsonResponses, refTo } from '../../rest/openapi';

interface EventDocumentsParams {
  facility_id: string;
  event_id: string;
}

interface PageQuery {
  page?: string;
  per_page?: string;
}

/** The contract's routes of this area (see ContractRoute). */
export const DOCUMENTS_ROUTES: readonly ContractRoute[] = [
  contractRoute<{ Params: EventDocumentsParams; Querystring: PageQuery }>(
    'GET',
    '/v1/:facility_id/events/:event_id/documents',
    {
      schema: {
        summary: 'Documents of a move-in, move-out or successful payment event',
        tags: ['documents'],
        operationId: 'listEventDocuments',
        response: jsonResponses("One page of the event's documents", {
          documents: { type: 'array', items: refTo('EventDocument') },
        }),
        params: {
          type: 'object',
          properties: {
            facility_id: facilityIdParam,
            event_id: idParam('Id of a move_in_unit_event, move_out_unit_event or successful_payment_event'),
          },
          required: ['facility_id', 'event_id'],
        },
        querystring: { type: 'object', properties: pageQuery },
      },
    },
    (services) => async (request, reply) => {
      const facility = await services.facilities.facilityFor(request.caller!, request.params.facility_id);
      const result = await services.documents.eventDocuments(facility, {
        eventId: request.params.event_id,
        page: request.query.page,
        perPage: request.query.per_page,
      });
      request.envelope.defaults = {
        page: result.pagination.current_page,
        per_page: result.pagination.per_page,
      };
      const documents = result.entries.map((d) =>
        serializeEventDocument(presentDocument(d, facility.timeZone)),
      );
      return sendOk(request, reply, { documents }, result.pagination);
    },
  ),
];
