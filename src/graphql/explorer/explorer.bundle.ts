import fs from 'node:fs';
import path from 'node:path';

/**
 * GraphiQL's bundle, as scripts/build-explorer.js writes it at build time: files named by their
 * content's hash, each with its `.br` and `.gz` variants, and manifest.json naming the page's script
 * and stylesheet.
 */
export interface ExplorerManifest {
  script: string;
  stylesheet: string;
  files: readonly string[];
}

export interface ExplorerBundle {
  readonly dir: string;
  readonly manifest: ExplorerManifest;
}

/**
 * Where the bundle is: beside this file's compiled copy in dist/ (`npm run build`), or, run from
 * the sources (tests, ts-node), in dist/ of the checkout.
 */
export const BUNDLE_PLACES: readonly string[] = [
  path.join(__dirname, 'bundle'),
  path.join(__dirname, '../../../dist/graphql/explorer/bundle'),
];

/** The bundle in the first place that holds one, or null when none was built. */
export function findExplorerBundle(places: readonly string[] = BUNDLE_PLACES): ExplorerBundle | null {
  for (const dir of places) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
    } catch {
      continue;
    }
    const manifest = JSON.parse(text) as ExplorerManifest;
    return { dir, manifest };
  }
  return null;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface AssetFile {
  /** The file to send: the one asked for, or its brotli or gzip variant. */
  file: string;
  type: string;
  encoding: 'br' | 'gzip' | null;
}

/** Whether Accept-Encoding takes a coding (`br`, `gzip`): named with a q above 0, or by `*`. */
function accepts(acceptEncoding: string, coding: string): boolean {
  let star = false;
  for (const entry of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = entry.split(';').map((part) => part.trim());
    const q = params.find((param) => param.startsWith('q='));
    const taken = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding) return taken;
    if (name === '*') star = taken;
  }
  return star;
}

/**
 * The file of the bundle a request names, in the best encoding the client accepts (brotli, then
 * gzip, then as it is); null for any name the bundle does not hold.
 */
export function assetFile(
  bundle: ExplorerBundle,
  name: string,
  acceptEncoding: string | undefined,
): AssetFile | null {
  if (!bundle.manifest.files.includes(name)) return null;
  const type = TYPES[path.extname(name)] ?? 'application/octet-stream';
  const file = path.join(bundle.dir, name);
  if (acceptEncoding && accepts(acceptEncoding, 'br')) return { file: `${file}.br`, type, encoding: 'br' };
  if (acceptEncoding && accepts(acceptEncoding, 'gzip'))
    return { file: `${file}.gz`, type, encoding: 'gzip' };
  return { file, type, encoding: null };
}
