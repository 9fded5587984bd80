import { execFileSync } from 'node:child_process';

/**
 * The text of a PDF as poppler's `pdftotext` reads it, so tests check what a reader would see.
 * CI installs poppler-utils (.ci/run); without it the tests say so instead of passing vacuously.
 */
export function pdfText(pdf: Buffer): string {
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 16 * 1024 * 1024 })
      .toString('utf8')
      .replace(/\s+/g, ' ');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'pdftotext is not installed: install poppler-utils (apt-get install poppler-utils), as .ci/run does',
      );
    }
    throw error;
  }
}

/** The number of pages `pdfinfo` reports. */
export function pdfPageCount(pdf: Buffer): number {
  const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8');
  const match = /^Pages:\s+(\d+)/m.exec(info);
  if (!match) throw new Error(`pdfinfo reported no page count:\n${info}`);
  return Number(match[1]);
}
