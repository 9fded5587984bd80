// Fails when schema.graphql or the codegen output is stale: regenerates both in a temporary
// directory from the current code and operation files, and compares; likewise dataset.schema.json
// and the docs' tables of settings (`npm run check:generated`).
require('./swc-register');
require('reflect-metadata');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { generate, loadCodegenConfig } = require('@graphql-codegen/cli');
const { gatewaySchemaFileText, schemaFileText, subgraphSchemaFileText } = require('../src/modules');
const { datasetSchemaFileText } = require('../src/store/dataset/dataset.schema');
const { settingsDocs } = require('./settings-tables');

const root = path.resolve(__dirname, '..');

function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1}: committed ${JSON.stringify(b[i] ?? '<end>')}, expected ${JSON.stringify(a[i] ?? '<end>')}`;
  }
  return 'identical';
}

async function main() {
  const stale = [];
  const schemaPath = path.join(root, 'schema.graphql');
  const schema = schemaFileText();
  const committed = fs.existsSync(schemaPath) ? fs.readFileSync(schemaPath, 'utf8') : '';
  if (committed !== schema)
    stale.push(`schema.graphql (${firstDifference(schema, committed)}); run npm run schema:emit`);
  const gatewayPath = path.join(root, 'schema.gateway.graphql');
  const gateway = gatewaySchemaFileText();
  const committedGateway = fs.existsSync(gatewayPath) ? fs.readFileSync(gatewayPath, 'utf8') : '';
  if (committedGateway !== gateway)
    stale.push(
      `schema.gateway.graphql (${firstDifference(gateway, committedGateway)}); run npm run schema:emit`,
    );

  const subgraphPath = path.join(root, 'schema.subgraph.graphql');
  const subgraph = subgraphSchemaFileText();
  const committedSubgraph = fs.existsSync(subgraphPath) ? fs.readFileSync(subgraphPath, 'utf8') : '';
  if (committedSubgraph !== subgraph)
    stale.push(
      `schema.subgraph.graphql (${firstDifference(subgraph, committedSubgraph)}); run npm run schema:emit`,
    );

  const datasetPath = path.join(root, 'dataset.schema.json');
  const dataset = datasetSchemaFileText();
  const committedDataset = fs.existsSync(datasetPath) ? fs.readFileSync(datasetPath, 'utf8') : '';
  if (committedDataset !== dataset)
    stale.push(
      `dataset.schema.json (${firstDifference(dataset, committedDataset)}); run npm run schema:emit`,
    );

  for (const { file, committed, expected } of await settingsDocs()) {
    if (committed !== expected)
      stale.push(
        `${path.relative(root, file)} (${firstDifference(expected, committed)}); run npm run schema:emit`,
      );
  }

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-codegen-'));
  try {
    const freshSchema = path.join(tmp, 'schema.graphql');
    fs.writeFileSync(freshSchema, schema);
    const { config } = await loadCodegenConfig({ configFilePath: path.join(root, 'codegen.yml') });
    const outputs = await generate({ ...config, schema: freshSchema, cwd: root, silent: true }, false);
    for (const { filename, content } of outputs) {
      const target = path.resolve(root, filename);
      const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
      if (current !== content) {
        stale.push(
          `${path.relative(root, target)} (${firstDifference(content, current)}); run npm run codegen`,
        );
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  if (stale.length > 0) {
    console.error(`generated files are stale:\n  ${stale.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      "schema.graphql, schema.gateway.graphql, schema.subgraph.graphql, dataset.schema.json, codegen output and the docs' settings tables are up to date",
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
