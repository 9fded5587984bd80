import {
  PDFDocument,
  StandardFonts,
  degrees,
  drawImage,
  rgb,
  type PDFFont,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type { PdfSigner, SignaturePlacement, SigningCertificate } from '../../areas/esign/esign.ports';
import type { SignatureImage } from '../../areas/esign/esign.signature';
import type { DocumentSeal } from '../seal/document-seal';
import type { SealingKey } from '../seal/sealing-key';
import { printableText } from './pdfkit.renderer';
import { sealedPdf } from './signpdf.sealer';

const MARGIN = 72;
const LETTER: [number, number] = [612, 792];
const INK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.35, 0.35, 0.35);
const RULE = rgb(0.6, 0.6, 0.6);

/** One line of text the standard fonts can show (Windows-1252), line breaks as spaces. */
function line(text: string): string {
  return printableText(text).replace(/\n/g, ' ');
}

/** The longest start of `text` that fits `width`, with "..." when shortened. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let out = text;
  while (out.length > 1 && font.widthOfTextAtSize(`${out}...`, size) > width) out = out.slice(0, -1);
  return `${out.trimEnd()}...`;
}

/** Words laid into lines of at most `width`; a word longer than a line (a hash) is broken. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printableText(text).split('\n')) {
    let current = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
        if (current) lines.push(current);
        lines.push(rest.slice(0, cut));
        current = '';
        rest = rest.slice(cut);
      }
      const candidate = current ? `${current} ${rest}` : rest;
      if (font.widthOfTextAtSize(candidate, size) <= width) current = candidate;
      else {
        lines.push(current);
        current = rest;
      }
    }
    lines.push(current);
  }
  return lines;
}

/** A signature embedded once in a document, drawn wherever wanted. */
interface EmbeddedImage {
  ref: PDFRef;
  width: number;
  height: number;
}

/**
 * The drawn signature as an image XObject (its alpha as a soft mask), from the samples the reader
 * deflated already: nothing is decoded or compressed again on the event loop.
 */
function embedSignature(doc: PDFDocument, image: SignatureImage): EmbeddedImage {
  const { width, height } = image;
  const common = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 8 };
  const mask = image.alpha
    ? doc.context.register(
        doc.context.stream(image.alpha, {
          ...common,
          ColorSpace: 'DeviceGray',
          Decode: [0, 1],
          Filter: 'FlateDecode',
        }),
      )
    : undefined;
  const ref = doc.context.register(
    doc.context.stream(image.samples, {
      ...common,
      ColorSpace: image.colour === 'rgb' ? 'DeviceRGB' : 'DeviceGray',
      Filter: 'FlateDecode',
      ...(mask ? { SMask: mask } : {}),
    }),
  );
  return { ref, width, height };
}

function placeImage(
  page: PDFPage,
  image: EmbeddedImage,
  box: { x: number; y: number; width: number; height: number },
): void {
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(
    ...drawImage(name, { ...box, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }),
  );
}

/** A top-down writer over as many certificate pages as the text needs. */
class CertificateWriter {
  private page: PDFPage;
  private y = 0;
  private pages = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
    private readonly header: string,
  ) {
    this.page = this.newPage();
  }

  private newPage(): PDFPage {
    const page = this.doc.addPage(LETTER);
    this.pages += 1;
    const [width, height] = LETTER;
    page.drawText(fit(line(this.header), this.bold, 10, width - 2 * MARGIN), {
      x: MARGIN,
      y: height - 46,
      size: 10,
      font: this.bold,
      color: GREY,
    });
    page.drawLine({
      start: { x: MARGIN, y: height - 52 },
      end: { x: width - MARGIN, y: height - 52 },
      thickness: 0.5,
      color: RULE,
    });
    page.drawText(`Certificate of completion, page ${this.pages}`, {
      x: MARGIN,
      y: 40,
      size: 9,
      font: this.font,
      color: GREY,
    });
    this.page = page;
    this.y = height - MARGIN;
    return page;
  }

  private room(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /**
   * Wrapped text. No page is left holding one of its lines: a page break falls after at least two
   * of them and before at least two (all of them when there are three or fewer), and a bold
   * heading moves to the next page unless two lines of what follows fit under it.
   */
  text(text: string, options: { size?: number; bold?: boolean; indent?: number; gap?: number } = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const indent = options.indent ?? 0;
    const lineHeight = size * 1.35;
    const rows = wrap(text, font, size, LETTER[0] - 2 * MARGIN - indent);
    rows.forEach((row, i) => {
      const left = rows.length - i;
      const together = i === 0 ? (rows.length <= 3 ? rows.length : 2) : left === 2 ? 2 : 1;
      this.room(lineHeight * together + (options.bold && i === 0 ? 2 * 10 * 1.35 : 0));
      this.y -= lineHeight;
      this.page.drawText(row, { x: MARGIN + indent, y: this.y, size, font, color: INK });
    });
    this.y -= options.gap ?? 0;
  }

  /** A label in a column of its own and its value beside it. */
  pair(label: string, value: string, labelWidth = 170): void {
    const width = LETTER[0] - 2 * MARGIN - labelWidth;
    // One long word (a hash) is set smaller to stay whole on its line, so it reads and copies as one.
    const single = line(value);
    const natural = this.font.widthOfTextAtSize(single, 9);
    // Rounded down a little: a size that fits only to the last decimal would still break the word.
    const size =
      !/\s/.test(single) && natural > width ? Math.max(6.5, Math.floor((90 * width) / natural) / 10) : 9;
    const rows = wrap(value, this.font, size, width);
    this.room(9 * 1.35 * rows.length);
    this.y -= 9 * 1.35;
    this.page.drawText(fit(line(label), this.bold, 9, labelWidth - 8), {
      x: MARGIN,
      y: this.y,
      size: 9,
      font: this.bold,
      color: INK,
    });
    rows.forEach((row, i) => {
      if (i > 0) this.y -= 9 * 1.35;
      this.page.drawText(row, { x: MARGIN + labelWidth, y: this.y, size, font: this.font, color: INK });
    });
    this.y -= 2;
  }

  image(image: EmbeddedImage, maxWidth: number, maxHeight: number, caption: string): void {
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const height = image.height * scale;
    this.room(height + 24);
    this.y -= height + 4;
    placeImage(this.page, image, { x: MARGIN, y: this.y, width: image.width * scale, height });
    this.y -= 4;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: MARGIN + maxWidth, y: this.y },
      thickness: 0.5,
      color: RULE,
    });
    this.text(caption, { size: 8, gap: 6 });
  }

  space(points: number): void {
    this.y -= points;
  }
}

/**
 * The PDF signer port over pdf-lib: the drawn signature, the typed name and the time go in the
 * bottom margin of the original's last page (left of its page number, below its text), and
 * certificate pages with the audit trail and the consent wording are appended; then the whole file
 * is sealed with a PDF digital signature (see signpdf.sealer.ts).
 */
export class PdfLibSigner implements PdfSigner {
  constructor(
    private readonly seal: Pick<DocumentSeal, 'current'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async sign(
    original: Buffer,
    placement: SignaturePlacement,
    certificate: SigningCertificate,
  ): Promise<Buffer> {
    return signedPdf(original, placement, certificate, await this.seal.current(), this.now());
  }
}

/**
 * The original stamped, its certificate pages appended, and sealed with `seal` at `at`: the work of
 * PdfLibSigner, run as well in the PDF signing workers (pdf-signer.worker.ts). It needs pdf-lib,
 * pdfkit's text helpers and the sealer only: no database driver, no app.
 */
export async function signedPdf(
  original: Uint8Array,
  placement: SignaturePlacement,
  certificate: SigningCertificate,
  seal: SealingKey,
  at: Date,
): Promise<Buffer> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const signature = embedSignature(doc, placement.signature);

  const pages = doc.getPages();
  const last = pages[pages.length - 1];
  const box = { x: MARGIN, y: 22, width: 140, height: 40 };
  const scale = Math.min(box.width / signature.width, box.height / signature.height);
  placeImage(last, signature, {
    x: box.x,
    y: box.y + 2,
    width: signature.width * scale,
    height: signature.height * scale,
  });
  last.drawLine({
    start: { x: box.x, y: box.y },
    end: { x: box.x + box.width, y: box.y },
    thickness: 0.5,
    color: RULE,
  });
  const textX = box.x + box.width + 12;
  const textWidth = last.getWidth() - MARGIN - 70 - textX;
  const stamp: Array<[string, PDFFont]> = [
    [`Signed electronically by ${line(placement.signerName)}`, bold],
    [line(placement.signedAtText), font],
    ['Audit trail: certificate of completion at the end', font],
  ];
  stamp.forEach(([text, face], i) => {
    last.drawText(fit(text, face, 8, textWidth), {
      x: textX,
      y: 52 - i * 11,
      size: 8,
      font: face,
      color: INK,
    });
  });

  const writer = new CertificateWriter(doc, font, bold, certificate.facilityName);
  writer.text('Certificate of completion', { size: 16, bold: true, gap: 4 });
  writer.text(
    `${certificate.documentTitle} was signed electronically. This page records who signed it, when, ` +
      'from where, and what happened before.',
    { size: 10, gap: 8 },
  );
  for (const { label, value } of certificate.details) writer.pair(label, value);
  // A row like the document's own hash: the fingerprint kept whole on one line.
  writer.pair('Sealing certificate SHA-256', seal.fingerprint);
  writer.space(10);
  writer.image(signature, 220, 70, 'The signature as drawn');
  writer.text('Audit trail', { size: 12, bold: true, gap: 2 });
  for (const entry of certificate.trail) writer.pair(`${entry.at}`, `${entry.event}: ${entry.details}`, 190);
  writer.space(8);
  writer.text(
    'The SHA-256 of this signed file is kept with the signature record, so any later change to it can be detected.',
    { size: 9, gap: 10 },
  );
  writer.text('Consent given', { size: 12, bold: true, gap: 2 });
  writer.text(certificate.consent, { size: 8 });

  return sealedPdf(doc, seal, at);
}
