import type { DocumentsRepository, OriginalDocuments } from './documents.ports';
import { DomainError, type Path } from '../../kernel/errors';
import type { Facility } from '../facilities/facilities.types';
import { isUuid, normalizeId } from '../../kernel/ids';
import { localDate } from '../../kernel/time';
import type { PdfRenderer, SignedPdfs } from './pdf.ports';
import { fillTemplate, pdfFilename, personName } from '../../kernel/templates';
import type { RenderedDocument, RenderedPdf } from './pdf.types';

/** Event documents as PDFs (contract 4.6). */
export class DocumentPdfsService implements OriginalDocuments {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly pdfs: PdfRenderer,
    private readonly signed: SignedPdfs | null = null,
  ) {}

  /**
   * The document's PDF: its signed copy once it was signed electronically, else its template
   * filled in (see `originalDocument`). Anything but a document of this facility's events is
   * 404/9, which includes a session_document_id: those live in their own table.
   */
  async documentPdf(facility: Facility, documentId: string, parameter: Path = ['id']): Promise<RenderedPdf> {
    if (!isUuid(documentId)) throw DomainError.notFound(parameter, 'document', documentId);
    const signed = await this.signed?.signedPdf(facility.id, normalizeId(documentId));
    if (signed) return signed;
    const { filename, content } = await this.originalDocument(facility, documentId, parameter);
    return { filename, content };
  }

  /**
   * The document as rendered from its template, filled with its event's tenant, unit, facility
   * and date (the event's date where the facility is), with the text it shows; 404/9 as above.
   */
  async originalDocument(
    facility: Facility,
    documentId: string,
    parameter: Path = ['id'],
  ): Promise<RenderedDocument> {
    if (!isUuid(documentId)) throw DomainError.notFound(parameter, 'document', documentId);
    const document = await this.documents.findDocumentWithContext(facility.id, normalizeId(documentId));
    if (!document) throw DomainError.notFound(parameter, 'document', documentId);
    const tenantName = personName(document.tenantFirstName, document.tenantLastName);
    const body = fillTemplate(document.body, {
      tenant_name: tenantName,
      unit_name: document.unitName,
      facility_name: facility.name,
      date: localDate(new Date(document.eventCreatedAt), facility.timeZone),
    });
    const content = await this.pdfs.render({
      header: facility.name,
      title: document.description,
      body,
      createdAt: new Date(document.createdAt),
    });
    return {
      id: document.id,
      eventId: document.eventId,
      esignable: document.esignable,
      title: document.description,
      body,
      tenantName,
      filename: pdfFilename(document.description),
      content,
    };
  }
}
