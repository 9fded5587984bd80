import PDFDocument from 'pdfkit';

import type { PdfContent, PdfRenderer } from '../../areas/documents/pdf.ports';
import { withoutAccents } from '../../kernel/letters';

export type { PdfContent };

const PAGE_MARGIN = 72;
const HEADER_Y = 36;
const FOOTER_OFFSET = 48;

// The standard PDF fonts need no embedding (fast, small files) but only cover Windows-1252.
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.includes(char);
}

/**
 * Text the standard fonts can show: line breaks kept, tabs as spaces, other control characters
 * dropped, accented letters outside Windows-1252 without their accents, anything else as "?".
 */
export function printableText(text: string): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').normalize('NFC')) {
    if (char === '\n' || isWinAnsi(char)) out += char;
    else if (/\p{Cc}|\p{Cf}/u.test(char)) continue;
    else {
      const base = withoutAccents(char);
      out += base !== '' && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}

function paragraphsOf(body: string): string[] {
  return printableText(body)
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '');
}

/** Renders a one-column letter-size PDF; resolves with its bytes. */
export function renderPdf(content: PdfContent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const header = printableText(content.header).replace(/\n/g, ' ');
    const title = printableText(content.title).replace(/\n/g, ' ');
    const doc = new PDFDocument({
      size: 'LETTER',
      margins: { top: PAGE_MARGIN, bottom: PAGE_MARGIN, left: PAGE_MARGIN, right: PAGE_MARGIN },
      bufferPages: true,
      info: {
        Title: title,
        Author: printableText(content.author ?? content.header),
        Creator: 'facility-ops',
        Producer: 'facility-ops',
        CreationDate: content.createdAt,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const width = () => doc.page.width - PAGE_MARGIN * 2;
    // Header and page numbers go on once the text has flowed, when the page count is known.
    const decoratePages = () => {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        const bottom = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        doc.font('Helvetica-Bold').fontSize(10).fillColor('#333333');
        doc.text(header, PAGE_MARGIN, HEADER_Y, { width: width(), height: 12, ellipsis: true });
        doc
          .moveTo(PAGE_MARGIN, HEADER_Y + 16)
          .lineTo(doc.page.width - PAGE_MARGIN, HEADER_Y + 16)
          .lineWidth(0.5)
          .strokeColor('#999999')
          .stroke();
        doc.font('Helvetica').fontSize(9);
        doc.text(`Page ${i + 1} of ${range.count}`, PAGE_MARGIN, doc.page.height - FOOTER_OFFSET, {
          width: width(),
          align: 'right',
          lineBreak: false,
        });
        doc.page.margins.bottom = bottom;
      }
    };

    try {
      doc.font('Helvetica-Bold').fontSize(16).text(title, { width: width() });
      doc.moveDown(0.8);
      for (const paragraph of paragraphsOf(content.body)) {
        doc.font('Helvetica').fontSize(11).text(paragraph, { width: width(), lineGap: 2 });
        doc.moveDown(0.6);
      }
      decoratePages();
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The PDF renderer port over pdfkit. */
export class PdfkitRenderer implements PdfRenderer {
  render(content: PdfContent): Promise<Buffer> {
    return renderPdf(content);
  }
}
