/** A rendered PDF and the name it downloads under. */
export interface RenderedPdf {
  filename: string;
  content: Buffer;
}

/** A document rendered from its template, with the text its PDF shows. */
export interface RenderedDocument extends RenderedPdf {
  id: string;
  eventId: string;
  esignable: boolean;
  title: string;
  /** The filled-in text; blank lines separate paragraphs. */
  body: string;
  /** The tenant of its event, whom it is addressed to (null when the event has none). */
  tenantName: string | null;
}
