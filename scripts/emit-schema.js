// Writes schema.graphql (or the path given) from the TypeGraphQL classes: `npm run schema:emit`.
require('./swc-register');
require('reflect-metadata');
const fs = require('node:fs');
const path = require('node:path');
const { schemaFileText } = require('../src/graphql/schema');

const target = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'schema.graphql'));
fs.writeFileSync(target, schemaFileText());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
