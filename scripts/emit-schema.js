// Writes schema.graphql, schema.gateway.graphql and schema.subgraph.graphql (Federation) (or, with a path, the first alone) from the
// TypeGraphQL classes, and dataset.schema.json (the dataset format, for operators and other tools)
// from src/store/dataset/dataset.schema.ts, and the docs' tables of settings from src/config.ts:
// `npm run schema:emit`.
require('./swc-register');
require('reflect-metadata');
const fs = require('node:fs');
const path = require('node:path');
const { gatewaySchemaFileText, schemaFileText, subgraphSchemaFileText } = require('../src/modules');
const { datasetSchemaFileText } = require('../src/store/dataset/dataset.schema');
const { settingsDocs } = require('./settings-tables');

const root = path.join(__dirname, '..');
const files = process.argv[2]
  ? [[path.resolve(process.argv[2]), schemaFileText()]]
  : [
      [path.join(root, 'schema.graphql'), schemaFileText()],
      [path.join(root, 'schema.gateway.graphql'), gatewaySchemaFileText()],
      [path.join(root, 'schema.subgraph.graphql'), subgraphSchemaFileText()],
      [path.join(root, 'dataset.schema.json'), datasetSchemaFileText()],
    ];
for (const [target, text] of files) {
  fs.writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}

if (!process.argv[2]) {
  settingsDocs().then((docs) => {
    for (const { file, committed, expected } of docs) {
      if (committed === expected) continue;
      fs.writeFileSync(file, expected);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  });
}
