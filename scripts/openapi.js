// The /v1 OpenAPI document, built in-process from the route schemas (no server, an in-memory
// database). `node scripts/openapi.js` prints it; `--lint` checks it with Redocly's recommended
// rules and fails on any error (`npm run check` does this).
require('./swc-register');
require('reflect-metadata');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildApp } = require('../src/app');
const { loadConfig } = require('../src/config');
const { openStore } = require('../src/store/database');
const { migrateToLatest } = require('../src/store/migrator');

async function openApiDocument() {
  const store = openStore('sqlite::memory:');
  try {
    await migrateToLatest(store.db);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', OUTBOX_WORKER: 'false' });
    const { app } = await buildApp({ config, store });
    try {
      const answer = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      if (answer.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${answer.statusCode}`);
      return answer.json();
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
  }
}

function lint(document) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    const result = spawnSync(
      process.execPath,
      [cli, 'lint', '--extends=recommended', '--format=stylish', file],
      {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    return result.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const document = await openApiDocument();
  if (process.argv.includes('--lint')) {
    process.exitCode = lint(document);
  } else {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
