import { Type } from '@sinclair/typebox';
import * as EventDocument from './event-document.contract';
import { RefTo } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk } from '../../rest/envelope';
import { jsonResponses } from '../../rest/responses';
import { facilityIdParam, idParam, pageQuery } from '../../rest/schemas';
import type { DocumentsService } from './documents.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly documents: DocumentsService;
}

/** The contract's routes of this area (see ContractRoute). */
export const DOCUMENTS_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/:facility_id/events/:event_id/documents',
    {
      schema: {
        summary: 'Documents of a move-in, move-out or successful payment event',
        tags: ['documents'],
        operationId: 'listEventDocuments',
        response: jsonResponses("One page of the event's documents", {
          documents: Type.Array(RefTo(EventDocument.schema)),
        }),
        params: Type.Object({
          facility_id: facilityIdParam,
          event_id: idParam('Id of a move_in_unit_event, move_out_unit_event or successful_payment_event'),
        }),
        querystring: Type.Object(pageQuery),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const result = await services.documents.eventDocuments(facility, {
        eventId: request.params.event_id,
        page: request.query.page,
        perPage: request.query.per_page,
      });
      request.envelope.defaults = {
        page: result.pagination.current_page,
        per_page: result.pagination.per_page,
      };
      const documents = result.entries.map((d) => EventDocument.toContract(d, facility.timeZone));
      return sendOk(request, reply, { documents }, result.pagination);
    },
  ),
];
