import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The signing page's own stylesheet and script (`assets/`), served from this service (no CDN, no
 * outside asset; the page's Content-Security-Policy allows nothing else). Each is served under a
 * name carrying its hash, so a browser may keep it for a year and a new version is fetched at once.
 * Read once, when this module loads; `npm run build` copies the folder beside the compiled file.
 */

export interface SigningAsset {
  /** `/sign/assets/page.<hash>.<extension>`, the name the page links to and the route serves. */
  path: string;
  content: string;
  type: string;
}

const ASSETS = path.join(__dirname, 'assets');

function asset(file: string, extension: string, type: string): SigningAsset {
  const location = path.join(ASSETS, file);
  let content: string;
  try {
    content = fs.readFileSync(location, 'utf8');
  } catch (error) {
    throw new Error(
      `The signing page's ${file} is missing at ${location}: run \`npm run build\`, which copies src/areas/esign/signing/assets into dist.`,
      { cause: error },
    );
  }
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 12);
  return { path: `/sign/assets/page.${hash}.${extension}`, content, type };
}

export const SIGNING_STYLESHEET = asset('signing.css', 'css', 'text/css; charset=utf-8');
export const SIGNING_SCRIPT = asset('signing.js', 'js', 'text/javascript; charset=utf-8');
