// Copies the files of src/ that tsc does not emit (the signing page's stylesheet and script) to the
// same place under the build's output folder: `node scripts/copy-assets.js [outDir]`, dist by default.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
/** Folders under src/ whose files are read at run time beside the compiled code. */
const FOLDERS = ['areas/esign/signing/assets'];

const outDir = path.resolve(root, process.argv[2] ?? 'dist');
for (const folder of FOLDERS) {
  fs.cpSync(path.join(root, 'src', folder), path.join(outDir, folder), { recursive: true });
}
