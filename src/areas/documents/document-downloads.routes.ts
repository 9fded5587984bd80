import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { RenderedPdf } from './pdf.types';
import { contractRoute, type ContractRoute } from '../../rest/contract-routes';
import { facilityIdParam } from '../../rest/schemas';
import { pdfResponses } from '../../rest/responses';
import type { DocumentPdfsService } from './document-pdfs.service';
import type { SessionDocumentPdfs } from '../move-ins/move-ins.ports';

/** The services these routes read: nothing else reaches them. */
interface RouteServices {
  readonly documentPdfs: DocumentPdfsService;
  readonly moveIns: SessionDocumentPdfs;
}

const requiredId = (description: string) => Type.String({ minLength: 1, description });

/** PDFs carry tenants' names: downloaded as attachments, never kept by shared caches. */
function sendPdf(reply: FastifyReply, pdf: RenderedPdf): FastifyReply {
  return reply
    .code(200)
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${pdf.filename}"`)
    .header('Cache-Control', 'private, no-store')
    .send(pdf.content);
}

/** Contract 4.6 and 4.7: documents as PDFs (errors answer in the JSON envelope). */
/** The contract's routes of this area (see ContractRoute). */
export const DOCUMENT_DOWNLOAD_ROUTES: readonly ContractRoute<RouteServices>[] = [
  contractRoute(
    'GET',
    '/v1/:facility_id/documents/:id',
    {
      schema: {
        summary: "A PDF of one of the facility's event documents",
        description:
          'Rendered from the document template with the event tenant, unit, facility and date. ' +
          'A session_document_id is not a document id here (404).',
        tags: ['documents'],
        operationId: 'downloadDocument',
        response: pdfResponses('The document as a PDF'),
        params: Type.Object({ facility_id: facilityIdParam, id: requiredId('Document id (UUID)') }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      return sendPdf(reply, await services.documentPdfs.documentPdf(facility, request.params.id));
    },
  ),

  contractRoute(
    'GET',
    '/v1/:facility_id/documents/:session_document_id/session/:session_id',
    {
      schema: {
        summary: 'A PDF of a move-in review document, while its session lives (24 hours)',
        description: 'Both ids come from POST /move_ins/review_cost. An expired session answers 410.',
        tags: ['documents', 'move-ins'],
        operationId: 'downloadSessionDocument',
        response: pdfResponses('The session document as a PDF', 410),
        params: Type.Object({
          facility_id: facilityIdParam,
          session_document_id: requiredId('session_document_id from the move-in review (UUID)'),
          session_id: requiredId('session_id from the move-in review (UUID)'),
        }),
      },
    },
    (services: RouteServices) => async (request, reply) => {
      const facility = request.facility;
      const pdf = await services.moveIns.sessionDocumentPdf(facility, {
        sessionDocumentId: request.params.session_document_id,
        sessionId: request.params.session_id,
      });
      return sendPdf(reply, pdf);
    },
  ),
];
