#!/usr/bin/env node
'use strict';
// The compiled command line lives in dist/; this file only finds it.
const fs = require('node:fs');
const path = require('node:path');

// Supported: the Node.js LTS lines 22, 24 and 26 (package.json's engines). An older line fails later
// and less clearly (the SQLite binding needs Node-API 10), so refuse here, in one line.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `facility-ops: Node.js ${process.versions.node} is not supported; use Node.js 22 (22.19 or newer), 24 or 26.\n`,
  );
  process.exit(1);
}

const entry = path.join(__dirname, '..', 'dist', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write(
    `facility-ops: ${path.relative(process.cwd(), entry) || entry} is missing: the TypeScript sources are not built.\n` +
      '  Run `npm run build` once (or `npm run dev`, which builds and starts), then try again.\n',
  );
  process.exit(1);
}
// A service command starts again, as the same process, with the settings that only apply from a
// process's start (dist/ops/launch.js says which and why); a small module, loaded alone.
const launch = require(path.join(__dirname, '..', 'dist', 'ops', 'launch.js'));
let relaunch;
try {
  relaunch = launch.relaunchFor(process.argv.slice(2), process.execArgv, process.env);
} catch (error) {
  process.stderr.write(`facility-ops: ${error.message}\n`);
  process.exit(1);
}
if (relaunch !== null && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [process.execPath, ...relaunch.execArgv, process.argv[1], ...process.argv.slice(2)],
    relaunch.env,
  );
}
let cli;
try {
  cli = require(entry);
} catch (error) {
  // A native addon built for another Node.js fails here when it loads with the program.
  if (error && (error.code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION/.test(String(error.message)))) {
    process.stderr.write(
      `facility-ops: ${error.message.split('\n')[0]}\n` +
        `  a native module was built for another Node.js than this one (${process.version}, NODE_MODULE_VERSION ${process.versions.modules}): run \`npm rebuild\` with this Node.js, then try again\n`,
    );
    process.exit(1);
  }
  throw error;
}
cli.main(process.argv.slice(2));
