import { Type } from '@sinclair/typebox';
import { Nullable } from '../../contract/kit';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { sendOk } from '../../rest/envelope';
import { jsonResponses } from '../../rest/responses';
import { facilityIdParam, idParam } from '../../rest/schemas';
import type { EsignService } from './esign.service';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly esign: EsignService;
}

/** The contract's routes of this area (see ContractRoute). */
export const ESIGN_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'POST',
    '/v1/:facility_id/documents/:event_id/send_esignable_documents',
    {
      schema: {
        summary: "Send the event's esignable documents by email or SMS (JSON or form-encoded body)",
        description:
          'Exactly one of email and sms_number. The message is queued in the outbox in the same ' +
          'transaction and delivered by the outbox worker; the answer holds only meta.',
        tags: ['documents'],
        operationId: 'sendEsignableDocuments',
        response: jsonResponses('Queued for delivery: the answer holds only meta', {}),
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: Type.Object({
          facility_id: facilityIdParam,
          event_id: idParam('Id of a move_in_unit_event, move_out_unit_event or successful_payment_event'),
        }),
        body: Type.Object({
          email: Type.Optional(
            Nullable(Type.String({ description: 'Email address to send to (not with sms_number)' })),
          ),
          sms_number: Type.Optional(
            Nullable(
              Type.String({
                description:
                  'Phone number to text, +15555550100 or a 10-digit North American number (not with email)',
              }),
            ),
          ),
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const body = request.body ?? {};
      await services.esign.sendEsignableDocuments(facility, {
        eventId: request.params.event_id,
        email: body.email,
        smsNumber: body.sms_number,
      });
      return sendOk(request, reply, {});
    },
  ),
];
