import type { RenderedPdf } from './pdf.types';

/** What a rendered document shows: the facility in a header on every page, a title and the text. */
export interface PdfContent {
  /** Printed at the top of every page (the facility's name). */
  header: string;
  title: string;
  /** Filled-in text; blank lines separate paragraphs. */
  body: string;
  /** Written as the PDF's creation date, so the same document renders to the same bytes. */
  createdAt: Date;
  /** Document metadata (Author). */
  author?: string;
}

/** Turns a document's text into PDF bytes; the same content renders to the same bytes. */
export interface PdfRenderer {
  render(content: PdfContent): Promise<Buffer>;
}

/** Where signed copies of documents are kept; a signed document downloads as its signed copy. */
export interface SignedPdfs {
  /** The facility's document's signed PDF, if it was signed. */
  signedPdf(facilityId: string, documentId: string): Promise<RenderedPdf | undefined>;
}
