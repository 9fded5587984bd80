// Lets plain `node` load the TypeScript sources, compiled by swc with the settings jest uses
// (decorators and their metadata included), for the build-free scripts next to this file.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');

const [, swcOptions] = require('../jest.config.js').projects[0].transform['^.+\\.ts$'];
const root = path.resolve(__dirname, '..');

Module._extensions['.ts'] = (module, filename) => {
  if (filename.includes(`${path.sep}node_modules${path.sep}`) || !filename.startsWith(root)) {
    throw new Error(`swc-register compiles only this project's sources, not ${filename}`);
  }
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    ...swcOptions,
    filename,
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
