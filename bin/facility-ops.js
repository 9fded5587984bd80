#!/usr/bin/env node
'use strict';
// The compiled command line lives in dist/; this file only finds it.
const fs = require('node:fs');
const path = require('node:path');

const entry = path.join(__dirname, '..', 'dist', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write(
    `facility-ops: ${path.relative(process.cwd(), entry) || entry} is missing: the TypeScript sources are not built.\n` +
      '  Run `npm run build` once (or `npm run dev`, which builds and starts), then try again.\n',
  );
  process.exit(1);
}
require(entry).main(process.argv.slice(2));
