import type { DocumentsRepository } from '../../store/repositories/documents.repository';
import { DomainError } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../shared/ids';
import { localDate } from '../shared/time';
import { renderPdf } from './pdf.renderer';
import { fillTemplate, pdfFilename, personName } from './pdf.template';
import type { RenderedPdf } from './pdf.types';

/** Event documents as PDFs (contract 4.6). */
export class DocumentPdfsService {
  constructor(private readonly documents: DocumentsRepository) {}

  /**
   * The document's template filled with its event's tenant, unit, facility and date (the event's
   * date where the facility is). Anything but a document of this facility's events is 404/9, which
   * includes a session_document_id: those live in their own table.
   */
  async documentPdf(facility: Facility, documentId: string, parameter = 'id'): Promise<RenderedPdf> {
    if (!isUuid(documentId)) throw DomainError.notFound(parameter, 'document', documentId);
    const row = await this.documents.findDocumentWithContext(facility.id, normalizeId(documentId));
    if (!row) throw DomainError.notFound(parameter, 'document', documentId);
    const body = fillTemplate(row.body, {
      tenant_name: personName(row.tenant_first_name, row.tenant_last_name),
      unit_name: row.unit_name,
      facility_name: facility.name,
      date: localDate(new Date(row.event_created_at), facility.timeZone),
    });
    const content = await renderPdf({
      header: facility.name,
      title: row.description,
      body,
      createdAt: new Date(row.created_at),
    });
    return { filename: pdfFilename(row.description), content };
  }
}
