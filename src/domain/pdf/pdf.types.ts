/** A rendered PDF and the name it downloads under. */
export interface RenderedPdf {
  filename: string;
  content: Buffer;
}
