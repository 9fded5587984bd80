// Bundles the GraphQL explorer (GraphiQL with the explorer plugin, src/graphql/explorer/client/) with
// esbuild, offline, into the build's output folder, where the service serves it from:
// `node scripts/build-explorer.js [outDir] [--if-stale]`, dist by default. Every file is named by
// its content's hash, and written with its brotli and gzip variants; manifest.json names the page's
// script and stylesheet. `--if-stale` builds only when the sources or the lockfile changed since.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.join(__dirname, '..');
const CLIENT = path.join(root, 'src/graphql/explorer/client');
/** Where src/graphql/explorer/explorer.assets.ts looks for the bundle, beside its compiled file. */
const BUNDLE = 'graphql/explorer/bundle';
/** Monaco's workers, each its own script; the page names them when Monaco asks for one. */
const WORKERS = {
  editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
  json: 'monaco-editor/esm/vs/language/json/json.worker.js',
  graphql: 'monaco-graphql/esm/graphql.worker.js',
};

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const outDir = path.resolve(root, args.find((arg) => !arg.startsWith('--')) ?? 'dist');
const target = path.join(outDir, BUNDLE);

/** What the bundle is made from: the client's files and the locked package versions. */
function fingerprint() {
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(CLIENT).sort()) {
    hash.update(file).update(fs.readFileSync(path.join(CLIENT, file)));
  }
  hash.update(fs.readFileSync(path.join(root, 'package-lock.json')));
  hash.update(fs.readFileSync(path.join(__dirname, 'build-explorer.js')));
  return hash.digest('hex');
}

function builtFrom() {
  try {
    return JSON.parse(fs.readFileSync(path.join(target, 'manifest.json'), 'utf8')).source;
  } catch {
    return null;
  }
}

/** The file esbuild wrote for an entry point, and the stylesheet it gathered for it, if any. */
function outputOf(metafile, entry) {
  const [file, output] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint?.endsWith(entry));
  return { js: path.basename(file), css: output.cssBundle && path.basename(output.cssBundle) };
}

async function build() {
  const esbuild = require('esbuild');
  const source = fingerprint();
  if (ifStale && builtFrom() === source) return;
  const started = Date.now();
  // Built beside the target and renamed into place, so a reader never sees half a bundle.
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.bundle-'));
  fs.chmodSync(work, 0o755);
  const common = {
    bundle: true,
    minify: true,
    legalComments: 'none',
    target: ['es2022'],
    outdir: work,
    entryNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'warning',
  };
  const workers = {};
  for (const [label, entry] of Object.entries(WORKERS)) {
    const result = await esbuild.build({
      ...common,
      entryPoints: { [`${label}.worker`]: require.resolve(entry, { paths: [root] }) },
      format: 'iife',
    });
    workers[label] = outputOf(result.metafile, entry.split('/').pop()).js;
  }
  const page = await esbuild.build({
    ...common,
    entryPoints: { explorer: path.join(CLIENT, 'explorer.tsx') },
    format: 'esm',
    jsx: 'automatic',
    // Fonts and icons the stylesheets name are inlined: the page loads nothing it did not bundle.
    loader: { '.ttf': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.svg': 'dataurl' },
    define: { ...common.define, EXPLORER_WORKERS: JSON.stringify(workers) },
  });
  const { js: script, css: stylesheet } = outputOf(page.metafile, 'explorer.tsx');
  const files = fs.readdirSync(work);
  for (const file of files) {
    const content = fs.readFileSync(path.join(work, file));
    fs.writeFileSync(
      path.join(work, `${file}.br`),
      zlib.brotliCompressSync(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
    fs.writeFileSync(path.join(work, `${file}.gz`), zlib.gzipSync(content, { level: 9 }));
  }
  const manifest = { source, script, stylesheet, files: files.sort() };
  fs.writeFileSync(path.join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const old = `${work}-old`;
  if (fs.existsSync(target)) fs.renameSync(target, old);
  fs.renameSync(work, target);
  fs.rmSync(old, { recursive: true, force: true });
  const size = (suffix) =>
    files.reduce((sum, file) => sum + fs.statSync(path.join(target, file + suffix)).size, 0);
  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  process.stdout.write(
    `explorer bundled into ${path.relative(root, target)} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${mb(size(''))} raw, ${mb(size('.gz'))} gzip, ${mb(size('.br'))} brotli (${files.length} files)\n`,
  );
}

build().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
