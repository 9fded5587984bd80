'use strict';
/* global fetch */
/**
 * `npm run bench:gateway`: facility-ops in gateway mode against Hive Gateway, both in front of the
 * same upstream (a facility-ops instance, system of record, SQLite) in one run.
 *
 * 1. Seeds the upstream's temporary database through the dataset import: a company of
 *    --facilities facilities with 100 tenants and 1,000 rate changes each, 40 invoiceable items and
 *    --actions rate applied actions on one day, each on its own ledger with insurance, services
 *    and discounts. The gateway's own database gets the company and a client application only.
 * 2. Starts the upstream, facility-ops in gateway mode (UPSTREAM_URL, signing with OAuth 1.0) and
 *    Hive Gateway serving a supergraph that `mesh-compose` (`@omnigraph/openapi`) composed from the
 *    upstream's /v1/openapi.json, with the ledger navigation added as the Mesh documentation
 *    describes (`additionalTypeDefs` with `@resolveTo`). Hive Gateway and its composer live in
 *    bench/hive, installed there on the first run (`npm ci`, about 530 MB).
 * 3. Checks that both answer each operation with the same data, then counts the upstream requests
 *    one operation costs each (from the upstream's /metrics), then measures req/s with autocannon:
 *    a 2 s warm-up of each, then rounds alternating facility-ops and Hive Gateway.
 * Prints a Markdown table and writes it to bench/results/gateway.md.
 *
 * Options: --facilities N (default 10), --actions N (30), --duration S (5), --rounds N (3),
 * --connections N (10), --dist DIR (default dist/), --keep. Unknown options throw.
 */
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { isDeepStrictEqual } = require('node:util');
const {
  ROOT,
  cannon,
  fmt,
  loadAverage,
  log,
  median,
  parseOptions,
  startService,
  summarize,
} = require('./common');
const { ACTIONS_DAY: DAY, actionsPart, companyParts } = require('./generate');

const HIVE = path.join(__dirname, 'hive');

function parseArgs(argv) {
  return parseOptions(argv, {
    facilities: 10,
    actions: 30,
    duration: 5,
    rounds: 3,
    connections: 10,
    dist: path.join(ROOT, 'dist'),
    keep: false,
  });
}

async function withStore(dist, file, work) {
  const { openStore } = require(path.join(dist, 'store/database'));
  const { migrateToLatest } = require(path.join(dist, 'store/migrator'));
  const { importDataset } = require(path.join(dist, 'store/dataset/dataset.import'));
  const store = openStore(`sqlite:${file}`);
  try {
    await migrateToLatest(store.db);
    await work((dataset) => importDataset(store, dataset));
  } finally {
    await store.close();
  }
}

const newClient = (companyId, name) => ({
  id: randomUUID(),
  company_id: companyId,
  name,
  consumer_key: randomBytes(12).toString('hex'),
  consumer_secret: randomBytes(24).toString('base64url'),
  bearer_token: randomBytes(24).toString('base64url'),
});

/** The upstream's database (the company's data) and the gateway's (the company and its caller only). */
async function seed(options, dir) {
  const out = {};
  const plan = {
    seed: 42,
    name: 'Bench Storage',
    key: 'bench',
    facilities: options.facilities,
    tenants: 100,
    changes: 10,
    out,
  };
  const upstreamClient = {};
  await withStore(options.dist, path.join(dir, 'upstream.db'), async (load) => {
    for (const part of companyParts(plan)) await load(part);
    await load(actionsPart(out.facilityId, options.actions));
    Object.assign(upstreamClient, newClient(out.companyId, 'gateways'));
    await load({ version: 1, client_applications: [upstreamClient] });
  });
  const gatewayClient = newClient(out.companyId, 'front end');
  await withStore(options.dist, path.join(dir, 'gateway.db'), (load) =>
    load({
      version: 1,
      companies: [{ id: out.companyId, name: plan.name }],
      client_applications: [gatewayClient],
    }),
  );
  return { companyId: out.companyId, facilityId: out.facilityId, upstreamClient, gatewayClient };
}

const INSTANT = /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)$/;
/** Instants as milliseconds, so the two sides compare equal when they name the same moment. */
const moments = (value) =>
  Array.isArray(value)
    ? value.map(moments)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moments(v)]))
      : typeof value === 'string' && INSTANT.test(value)
        ? Date.parse(value)
        : value;

/** Whether any instant of an answer lost the offset the upstream wrote (rewritten in UTC). */
const rewritesOffsets = (text) => /"\d{4}-\d\d-\d\dT[\d:.]+Z"/.test(text);

/**
 * The three operations, each as facility-ops (our schema) and Hive Gateway (the schema composed from
 * the OpenAPI document) ask for it, and the same data read out of each answer.
 */
function operations(world, options) {
  const f = world.facilityId;
  const window = { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' };
  return [
    {
      name: 'flat item list (40 invoiceable items)',
      ours: {
        query: `query ($id: UUID!) { facility(id: $id) { invoiceableItems(perPage: 100) { entries {
          id productCode kind description requiredAtMoveIn showInSalesCenter taxTotal total
          invoiceableAmounts { id amount limit } } } } }`,
        variables: { id: f },
      },
      hive: {
        query: `query ($id: String!) { listInvoiceableItems(facility_id: $id, per_page: "100") {
          ... on listInvoiceableItems_200_response { invoiceable_items {
          id product_code kind description required_at_move_in show_in_sales_center tax_total total
          invoiceable_amounts { id amount limit } } } } }`,
        variables: { id: f },
      },
      data: {
        ours: (d) =>
          d.facility.invoiceableItems.entries.map((i) => [
            i.id,
            i.productCode,
            i.description,
            i.total,
            i.taxTotal,
          ]),
        hive: (d) =>
          d.listInvoiceableItems.invoiceable_items.map((i) => [
            i.id,
            i.product_code,
            i.description,
            i.total,
            i.tax_total,
          ]),
      },
    },
    {
      name: `rate change page (500 of ${fmt(options.facilities * 1000)})`,
      ours: {
        query: `query ($id: UUID!, $after: DateTime!, $before: DateTime!) { company(id: $id) {
          rateChangeUpdates(updatedAfter: $after, updatedBefore: $before, perPage: 500) {
          entries { id facilityName tenantId tenantName unitId unitName changedAt oldRate newRate effectiveOnDate }
          pagination { totalEntries } } } }`,
        variables: { id: world.companyId, ...window },
      },
      hive: {
        query: `query ($id: String!, $after: queryInput_listRateChangeUpdates_updated_after,
          $before: queryInput_listRateChangeUpdates_updated_before) {
          listRateChangeUpdates(company_id: $id, updated_after: $after, updated_before: $before, per_page: "500") {
          ... on listRateChangeUpdates_200_response {
          rate_change_updates { id facility_name tenant_id tenant_name unit_id unit_name changed_at old_rate new_rate
          effective_on_date } meta { pagination { total_entries } } } } }`,
        variables: { id: world.companyId, ...window },
      },
      data: {
        ours: (d) => ({
          total: d.company.rateChangeUpdates.pagination.totalEntries,
          rows: d.company.rateChangeUpdates.entries.map((r) => [r.id, r.tenantName, r.changedAt, r.newRate]),
        }),
        hive: (d) => ({
          total: d.listRateChangeUpdates.meta.pagination.total_entries,
          rows: d.listRateChangeUpdates.rate_change_updates.map((r) => [
            r.id,
            r.tenant_name,
            r.changed_at,
            r.new_rate,
          ]),
        }),
      },
    },
    {
      name: `rate applied actions -> ledgers (${options.actions} actions)`,
      ours: {
        query: `query ($id: UUID!, $day: LocalDate!) { facility(id: $id) {
          rateAppliedActions(startDate: $day, endDate: $day) { newLedgerId timeCompleted
          newLedger { insurance { id amount effectiveDate } services { id amount } discounts { id name } } } } }`,
        variables: { id: f, day: DAY },
      },
      hive: {
        query: `query ($id: String!, $day: queryInput_listRateAppliedActions_start_date,
          $end: queryInput_listRateAppliedActions_end_date) {
          listRateAppliedActions(facility_id: $id, start_date: $day, end_date: $end) {
          ... on listRateAppliedActions_200_response { rate_applied_actions { new_ledger_id time_completed
          new_ledger(facility_id: $id) { ... on getLedger_200_response {
          insurance { id amount effective_date } services { id amount } discounts { id name } } } } } } }`,
        variables: { id: f, day: DAY, end: DAY },
      },
      data: {
        ours: (d) =>
          d.facility.rateAppliedActions.map((a) => [
            a.newLedgerId,
            a.timeCompleted,
            a.newLedger.insurance.id,
            a.newLedger.services.map((s) => s.id),
            a.newLedger.discounts.map((x) => x.id),
          ]),
        hive: (d) =>
          d.listRateAppliedActions.rate_applied_actions.map((a) => [
            a.new_ledger_id,
            a.time_completed,
            a.new_ledger.insurance.id,
            a.new_ledger.services.map((s) => s.id),
            a.new_ledger.discounts.map((x) => x.id),
          ]),
      },
    },
  ];
}

/** Runs a command of bench/hive's packages; throws with its output when it fails. */
function hiveTool(args, env) {
  const result = spawnSync(process.execPath, args, {
    cwd: HIVE,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

function installHive() {
  if (fs.existsSync(path.join(HIVE, 'node_modules', '@graphql-hive', 'gateway'))) return;
  log('installing Hive Gateway and Mesh Compose in bench/hive (npm ci, once)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HIVE, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error('npm ci in bench/hive failed');
}

const hiveBin = (pkg, bin) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(HIVE, 'node_modules', pkg, 'package.json'), 'utf8'));
  return path.join(
    HIVE,
    'node_modules',
    pkg,
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin],
  );
};

/** Hive Gateway serving the composed supergraph, from a folder of its own (no config file found by accident). */
function startHive(supergraph) {
  const cwd = path.dirname(supergraph);
  const bin = hiveBin('@graphql-hive/gateway', 'hive-gateway');
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn(
    process.execPath,
    [bin, 'supergraph', supergraph, '--host', '127.0.0.1', '--port', port, '--fork', '1'],
    { cwd, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const version = JSON.parse(
    fs.readFileSync(path.join(HIVE, 'node_modules', '@graphql-hive', 'gateway', 'package.json'), 'utf8'),
  ).version;
  return new Promise((resolve, reject) => {
    let output = '';
    const watch = (line) => {
      output += `${line}\n`;
      if (/Listening on http/.test(line)) resolve({ child, address: `http://127.0.0.1:${port}`, version });
    };
    readline.createInterface({ input: child.stdout }).on('line', watch);
    readline.createInterface({ input: child.stderr }).on('line', watch);
    child.once('exit', (code) => reject(new Error(`hive-gateway exited with ${code}:\n${output}`)));
  });
}

/** The upstream's /v1 requests so far, by status, from its /metrics. */
async function upstreamRequests(address) {
  const text = await (await fetch(`${address}/metrics`)).text();
  const counts = { all: 0, notModified: 0 };
  for (const m of text.matchAll(
    /^http_requests_total\{method="\w+",route="(\/v1\/[^"]*)",status_code="(\d+)"\} (\d+)/gm,
  )) {
    if (m[1] === '/v1/openapi.json') continue;
    counts.all += Number(m[3]);
    if (m[2] === '304') counts.notModified += Number(m[3]);
  }
  return counts;
}

async function ask(side, operation) {
  const res = await fetch(side.url, {
    method: 'POST',
    headers: side.headers,
    body: JSON.stringify(operation),
  });
  const text = await res.text();
  const body = JSON.parse(text);
  if (res.status !== 200 || body.errors)
    throw new Error(`${side.name} answered ${res.status}: ${text.slice(0, 400)}`);
  return { text, data: body.data };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(options.dist, 'app.js')))
    throw new Error(`${options.dist} is not built: npm run build`);
  installHive();
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-bench-gateway-'));
  const children = [];
  try {
    log(`seeding ${dir}: ${options.facilities} facilities, ${options.actions} rate applied actions`);
    const world = await seed(options, dir);
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      OUTBOX_WORKER: 'false',
    };
    const upstream = await startService(options.dist, {
      ...env,
      DATABASE_URL: `sqlite:${path.join(dir, 'upstream.db')}`,
    });
    children.push(upstream.child);
    const ours = await startService(options.dist, {
      ...env,
      DATABASE_URL: `sqlite:${path.join(dir, 'gateway.db')}`,
      UPSTREAM_URL: upstream.address,
      UPSTREAM_CONSUMER_KEY: world.upstreamClient.consumer_key,
      UPSTREAM_CONSUMER_SECRET: world.upstreamClient.consumer_secret,
    });
    children.push(ours.child);
    log('composing the supergraph from the upstream /v1/openapi.json (mesh-compose, @omnigraph/openapi)');
    const hiveDir = fs.mkdtempSync(path.join(dir, 'hive-'));
    const supergraph = path.join(hiveDir, 'supergraph.graphql');
    hiveTool(
      [hiveBin('@graphql-mesh/compose-cli', 'mesh-compose'), '-c', 'mesh.config.mjs', '-o', supergraph],
      {
        BENCH_UPSTREAM_URL: upstream.address,
        BENCH_UPSTREAM_TOKEN: world.upstreamClient.bearer_token,
      },
    );
    const hive = await startHive(supergraph);
    children.push(hive.child);

    const json = { 'content-type': 'application/json' };
    const sides = {
      'facility-ops': {
        name: 'facility-ops',
        url: `${ours.address}/graphql`,
        headers: { ...json, authorization: `Bearer ${world.gatewayClient.bearer_token}` },
      },
      'Hive Gateway': { name: 'Hive Gateway', url: `${hive.address}/graphql`, headers: json },
    };
    const rows = [];
    for (const operation of operations(world, options)) {
      const a = await ask(sides['facility-ops'], operation.ours);
      const b = await ask(sides['Hive Gateway'], operation.hive);
      const [x, y] = [operation.data.ours(a.data), operation.data.hive(b.data)];
      if (!isDeepStrictEqual(moments(x), moments(y)))
        throw new Error(`${operation.name}: the two gateways answer different data`);
      const offsets = { 'facility-ops': rewritesOffsets(a.text), 'Hive Gateway': rewritesOffsets(b.text) };
      // Upstream requests of one operation, the gateway warm (its kept answers revalidate with 304).
      const cost = {};
      for (const [name, side] of Object.entries(sides)) {
        const asked = name === 'facility-ops' ? operation.ours : operation.hive;
        const before = await upstreamRequests(upstream.address);
        const times = 10;
        for (let i = 0; i < times; i++) await ask(side, asked);
        const after = await upstreamRequests(upstream.address);
        cost[name] = {
          all: (after.all - before.all) / times,
          notModified: (after.notModified - before.notModified) / times,
        };
      }
      const requests = Object.fromEntries(
        Object.entries(sides).map(([name, side]) => [
          name,
          {
            url: side.url,
            method: 'POST',
            headers: side.headers,
            body: JSON.stringify(name === 'facility-ops' ? operation.ours : operation.hive),
          },
        ]),
      );
      const rounds = { 'facility-ops': [], 'Hive Gateway': [] };
      const loaded = { 'facility-ops': { calls: 0, ops: 0 }, 'Hive Gateway': { calls: 0, ops: 0 } };
      for (const name of Object.keys(sides))
        await cannon({ ...requests[name], connections: options.connections, duration: 2 });
      for (let round = 0; round < options.rounds; round++) {
        for (const name of Object.keys(sides)) {
          log(`measuring ${name} (round ${round + 1}/${options.rounds}): ${operation.name}`);
          const { connections, duration } = options;
          const before = await upstreamRequests(upstream.address);
          const result = await cannon({ ...requests[name], connections, duration });
          const after = await upstreamRequests(upstream.address);
          rounds[name].push(result);
          loaded[name].calls += after.all - before.all;
          loaded[name].ops += result.requests.total;
        }
      }
      const ratio = median(
        rounds['facility-ops'].map((r, i) => r.requests.average / rounds['Hive Gateway'][i].requests.average),
      );
      rows.push({
        operation,
        ratio,
        sides: Object.fromEntries(
          Object.keys(sides).map((name) => [
            name,
            {
              ...summarize(rounds[name]),
              cost: cost[name],
              underLoad: loaded[name].calls / loaded[name].ops,
              offsets: offsets[name],
            },
          ]),
        ),
      });
    }

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const perOp = (c) =>
      c.notModified > 0 ? `${fmt(c.all, 1)} (${fmt(c.notModified, 1)} of them 304)` : fmt(c.all, 1);
    const report = [
      '# Gateway mode against Hive Gateway, same upstream',
      '',
      `${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${os.cpus().length} x ${cpu}; ` +
        `load average (1, 5, 15 min) ${loadAtStart} at the start, ${loadAverage()} at the end. facility-ops ${require(path.join(ROOT, 'package.json')).version} ` +
        `in gateway mode (OAuth 1.0 to the upstream, its page cache on) and Hive Gateway ${hive.version} ` +
        '(one process, NODE_ENV=production, defaults otherwise) serving a supergraph composed by @graphql-mesh/compose-cli ' +
        `${hivePackageVersion('@graphql-mesh/compose-cli')} with @omnigraph/openapi ${hivePackageVersion('@omnigraph/openapi')} ` +
        "from the upstream's /v1/openapi.json (bearer token to the upstream), the ledger navigation an additionalTypeDefs " +
        `@resolveTo field. One upstream: facility-ops, system of record, SQLite. autocannon, ${options.connections} connections; ` +
        `a 2 s warm-up of each, then ${options.rounds} rounds of ${options.duration} s alternating the two. req/s is the mean ` +
        'over the rounds, p99 from the median round, the ratio the median of the per-round ratios. Upstream requests ' +
        "(the upstream's own count, 304s included): one at a time, the mean of 10 sequential operations after the " +
        'warm-up; under load, those the measured rounds made divided by the operations they answered. Both answers ' +
        'were checked to hold the same data first.',
      '',
      '| operation | gateway | req/s | p99 ms | failed | upstream requests per operation, one at a time | under load | instants keep their offsets |',
      '|---|---|---:|---:|---:|---:|---:|---|',
      ...rows.flatMap(({ operation, sides: s }) =>
        Object.entries(s).map(
          ([name, r]) =>
            `| ${operation.name} | ${name} | ${fmt(r.rate, 1)} | ${fmt(r.p99, 1)} | ${r.failed} | ${perOp(r.cost)} | ${fmt(r.underLoad, 2)} | ${r.offsets ? 'no (rewritten in UTC)' : 'yes'} |`,
        ),
      ),
      '',
      '| operation | facility-ops req/s / Hive Gateway req/s |',
      '|---|---:|',
      ...rows.map(({ operation, ratio }) => `| ${operation.name} | ${fmt(ratio, 2)}x |`),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'gateway.md'), `${report}\n`);
    log('written to bench/results/gateway.md');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

const hivePackageVersion = (pkg) =>
  JSON.parse(fs.readFileSync(path.join(HIVE, 'node_modules', pkg, 'package.json'), 'utf8')).version;

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
