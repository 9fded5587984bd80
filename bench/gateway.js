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
 * 2. Starts the upstream, facility-ops in gateway mode (UPSTREAM_URL, signing with OAuth 1.0) twice
 *    (the default, every read revalidated, and UPSTREAM_MAX_STALE_MS=1000) and three Hive Gateways (HIVE_SIDES: defaults only, the HTTP cache plugin, the response cache with
 *    a 1 s TTL), each serving a supergraph that `mesh-compose` (`@omnigraph/openapi`) composed from
 *    the upstream's /v1/openapi.json, with the ledger navigation added as the Mesh documentation
 *    describes (`additionalTypeDefs` with `@resolveTo`). Hive Gateway and its composer live in
 *    bench/hive, installed there on the first run (`npm ci`, about 530 MB).
 * 3. Checks that each answers each operation with the same data as facility-ops, then counts the
 *    upstream requests one operation costs each once warm (from the upstream's /metrics), then
 *    measures req/s with autocannon: a 2 s warm-up of each, then rounds alternating all five.
 * 4. Measures how stale each answers: under load, a write to the upstream's database (a value the
 *    operation answers), then reads until one shows it; the time from the write to that answer is
 *    how old the answers before it could be (the upstream itself shows such a write within 50 ms:
 *    SQLITE_TOKEN_MAX_AGE_MS). Once per round, the largest kept.
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
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
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
  PRODUCTION,
} = require('./common');
const { ACTIONS_DAY: DAY, actionsPart, companyParts } = require('./generate');

const HIVE = path.join(__dirname, 'hive');

/** facility-ops in gateway mode: the default (same freshness as the upstream) and a bounded staleness. */
const OURS = 'facility-ops';
const OURS_STALE = 'facility-ops, UPSTREAM_MAX_STALE_MS=1000';
const OUR_SIDES = new Set([OURS, OURS_STALE]);

/**
 * The Hive Gateway configurations, each a process of its own: `config` is a gateway config file of
 * bench/hive (`--config-path`), none for the defaults.
 */
const HIVE_SIDES = [
  { name: 'Hive Gateway', config: null },
  { name: 'Hive Gateway + HTTP cache (same freshness)', config: 'gateway-http-cache.config.mjs' },
  {
    name: 'Hive Gateway + response cache (short TTL, may answer stale)',
    config: 'gateway-response-cache.config.mjs',
  },
];

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
  const { DATASET_PLANS } = require(path.join(dist, 'modules'));
  const store = openStore(`sqlite:${file}`);
  try {
    await migrateToLatest(store.db);
    await work((dataset) => importDataset(store, DATASET_PLANS, dataset));
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
  // The second gateway's own copy: two processes need not share a SQLite file.
  fs.copyFileSync(path.join(dir, 'gateway.db'), path.join(dir, 'gateway-stale.db'));
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
      // The first item's description, in its columns and its listing.
      probe: {
        target: (d) => d.facility.invoiceableItems.entries[0].id,
        sql: "update invoiceable_items set description = @marker, listing = json_set(listing, '$.description', @marker) where id = @target",
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
      // The first rate change's tenant name, in its column and its listing.
      probe: {
        target: (d) => d.company.rateChangeUpdates.entries[0].id,
        sql: "update rate_changes set tenant_name = @marker, listing = json_set(listing, '$.tenant_name', @marker) where id = @target",
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
      // The name of a discount on the last action's ledger.
      probe: {
        target: (d) => d.facility.rateAppliedActions.at(-1).newLedger.discounts[0].id,
        sql: 'update ledger_discounts set name = @marker where id = @target',
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

/**
 * Hive Gateway serving the composed supergraph, from a folder of its own (no config file found by
 * accident), with `config` (a file of bench/hive) when given.
 */
function startHive(supergraph, config) {
  const cwd = path.dirname(supergraph);
  const bin = hiveBin('@graphql-hive/gateway', 'hive-gateway');
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const args = [bin, 'supergraph', supergraph, '--host', '127.0.0.1', '--port', port, '--fork', '1'];
  if (config) args.push('--config-path', path.join(HIVE, config));
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...PRODUCTION },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** The operation as a side asks it: facility-ops in its own schema, a Hive Gateway in the composed one. */
const asked = (name, operation) => (OUR_SIDES.has(name) ? operation.ours : operation.hive);

/** How long a write to the upstream's database takes to show in the side's answers, at most. */
const PROBE_DEADLINE_MS = 15_000;

/**
 * Under load (autocannon on the side, as in the rounds), a write to the upstream's database of a
 * value the operation answers, then reads one after another until one shows it. `shownAfter`: the
 * ms from the write's commit to that answer (null past the deadline); `oldest`: to the last answer
 * received without it, the age of the oldest answer given (0 when the first read showed it).
 */
async function staleness(upstreamDb, side, operation, target, connections, tag) {
  const marker = `stale-probe ${tag}`;
  const request = {
    url: side.url,
    method: 'POST',
    headers: side.headers,
    body: JSON.stringify(asked(side.name, operation)),
  };
  const load = cannon({ ...request, connections, duration: 3 });
  await sleep(1000);
  upstreamDb.prepare(operation.probe.sql).run({ marker, target });
  const written = performance.now();
  let shownAfter = null;
  let oldest = 0;
  while (performance.now() - written < PROBE_DEADLINE_MS) {
    const { text } = await ask(side, asked(side.name, operation));
    const received = performance.now() - written;
    if (text.includes(marker)) {
      shownAfter = received;
      break;
    }
    oldest = received;
  }
  await load;
  return { shownAfter, oldest };
}

/**
 * Upstream requests of one operation, one at a time, in steady state: 3 operations first (what a
 * cache keeps is kept, an expired TTL refilled), then the mean of 10 sequential ones.
 */
async function oneAtATime(upstream, side, operation) {
  for (let i = 0; i < 3; i++) await ask(side, operation);
  const before = await upstreamRequests(upstream);
  const times = 10;
  for (let i = 0; i < times; i++) await ask(side, operation);
  const after = await upstreamRequests(upstream);
  return {
    all: (after.all - before.all) / times,
    notModified: (after.notModified - before.notModified) / times,
  };
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
      ...PRODUCTION,
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
    const oursStale = await startService(options.dist, {
      ...env,
      DATABASE_URL: `sqlite:${path.join(dir, 'gateway-stale.db')}`,
      UPSTREAM_URL: upstream.address,
      UPSTREAM_CONSUMER_KEY: world.upstreamClient.consumer_key,
      UPSTREAM_CONSUMER_SECRET: world.upstreamClient.consumer_secret,
      UPSTREAM_MAX_STALE_MS: '1000',
    });
    children.push(oursStale.child);
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
    const hives = [];
    for (const { name, config } of HIVE_SIDES) {
      log(`starting ${name}`);
      const hive = await startHive(supergraph, config);
      children.push(hive.child);
      hives.push({ name, ...hive });
    }

    const json = { 'content-type': 'application/json' };
    const authorization = `Bearer ${world.gatewayClient.bearer_token}`;
    const sides = {
      [OURS]: { name: OURS, url: `${ours.address}/graphql`, headers: { ...json, authorization } },
      [OURS_STALE]: {
        name: OURS_STALE,
        url: `${oursStale.address}/graphql`,
        headers: { ...json, authorization },
      },
      ...Object.fromEntries(
        hives.map(({ name, address }) => [name, { name, url: `${address}/graphql`, headers: json }]),
      ),
    };
    const names = Object.keys(sides);
    const hiveNames = names.filter((name) => !OUR_SIDES.has(name));
    // The pairs the ratio table compares: facility-ops against each configuration, and the bounded
    // staleness against the response cache's TTL of the same length.
    const pairs = [...hiveNames.map((name) => [OURS, name]), [OURS_STALE, HIVE_SIDES[2].name]];
    const upstreamDb = new (require('better-sqlite3'))(path.join(dir, 'upstream.db'));
    upstreamDb.pragma('busy_timeout = 5000');
    children.push({ kill: () => upstreamDb.close() });
    const rows = [];
    for (const operation of operations(world, options)) {
      const answers = {};
      for (const name of names) answers[name] = await ask(sides[name], asked(name, operation));
      const expected = moments(operation.data.ours(answers[OURS].data));
      const probeTarget = operation.probe.target(answers[OURS].data);
      for (const name of hiveNames)
        if (!isDeepStrictEqual(expected, moments(operation.data.hive(answers[name].data))))
          throw new Error(`${operation.name}: ${name} answers different data from facility-ops`);
      const offsets = Object.fromEntries(names.map((name) => [name, rewritesOffsets(answers[name].text)]));
      const cost = {};
      for (const name of names)
        cost[name] = await oneAtATime(upstream.address, sides[name], asked(name, operation));
      const requests = Object.fromEntries(
        names.map((name) => [
          name,
          {
            url: sides[name].url,
            method: 'POST',
            headers: sides[name].headers,
            body: JSON.stringify(asked(name, operation)),
          },
        ]),
      );
      const rounds = Object.fromEntries(names.map((name) => [name, []]));
      const loaded = Object.fromEntries(names.map((name) => [name, { calls: 0, ops: 0 }]));
      for (const name of names)
        await cannon({ ...requests[name], connections: options.connections, duration: 2 });
      for (let round = 0; round < options.rounds; round++) {
        for (const name of names) {
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
      const ratios = pairs.map(([ourName, name]) =>
        median(rounds[ourName].map((r, i) => r.requests.average / rounds[name][i].requests.average)),
      );
      const probes = Object.fromEntries(names.map((name) => [name, []]));
      for (let round = 0; round < options.rounds; round++) {
        for (const name of names) {
          log(`measuring how stale ${name} answers (${round + 1}/${options.rounds}): ${operation.name}`);
          const tag = `${rows.length}.${names.indexOf(name)}.${round}`;
          probes[name].push(
            await staleness(upstreamDb, sides[name], operation, probeTarget, options.connections, tag),
          );
        }
      }
      rows.push({
        operation,
        ratios,
        sides: Object.fromEntries(
          names.map((name) => [
            name,
            {
              ...summarize(rounds[name]),
              cost: cost[name],
              underLoad: loaded[name].calls / loaded[name].ops,
              offsets: offsets[name],
              shownAfter: probes[name].some((probe) => probe.shownAfter === null)
                ? null
                : Math.max(...probes[name].map((probe) => probe.shownAfter)),
              oldest: Math.max(...probes[name].map((probe) => probe.oldest)),
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
        'in gateway mode (OAuth 1.0 to the upstream, its page cache on), by default (every read revalidated: the ' +
        "upstream's freshness) and with UPSTREAM_MAX_STALE_MS=1000 (answers up to 1 s old), " +
        `and Hive Gateway ${hives[0].version} ` +
        '(one process each, NODE_ENV=production) serving a supergraph composed by @graphql-mesh/compose-cli ' +
        `${hivePackageVersion('@graphql-mesh/compose-cli')} with @omnigraph/openapi ${hivePackageVersion('@omnigraph/openapi')} ` +
        "from the upstream's /v1/openapi.json (bearer token to the upstream), the ledger navigation an additionalTypeDefs " +
        '@resolveTo field, in three configurations: defaults only; + HTTP cache, ' +
        `@graphql-mesh/plugin-http-cache ${hivePackageVersion('@graphql-mesh/plugin-http-cache')} with the gateway's ` +
        "default cache (keeps what the upstream's Cache-Control and ETag allow, revalidates with If-None-Match: " +
        'never older than the upstream allows, the same freshness as facility-ops); + response cache, the built-in ' +
        `responseCaching (@graphql-mesh/plugin-response-cache ${hivePackageVersion('@graphql-mesh/plugin-response-cache')}), ` +
        'one session, ttl 1 s, an in-memory store of 100,000 entries: whole answers served without asking the ' +
        `upstream, up to 1 s stale. ${keptNothing(rows, HIVE_SIDES[1].name, HIVE_SIDES[0].name)}` +
        `One upstream: facility-ops, system of record, SQLite. autocannon, ${options.connections} connections; ` +
        `a 2 s warm-up of each, then ${options.rounds} rounds of ${options.duration} s alternating the five. req/s is the mean ` +
        'over the rounds, p99 from the median round, the ratios the median of the per-round ratios. Upstream requests ' +
        "(the upstream's own count, 304s included), in steady state: one at a time, the mean of 10 sequential " +
        'operations after 3 of warm-up; under load, those the measured rounds made divided by the operations they ' +
        "answered. Each Hive Gateway's answers were checked to hold the same data as facility-ops' first. " +
        `Staleness: ${options.rounds} times for each, under load (autocannon as in the rounds), a write to ` +
        "the upstream's database of a value the operation answers, then reads one after another: the ms from the " +
        "write's commit to the last answer received without it (the oldest answer given, 0 when the first read " +
        'showed it) and to the first answer showing it, the largest of the times (the upstream itself shows such a ' +
        'write within 50 ms).',
      '',
      '| operation | gateway | req/s | p99 ms | failed | upstream requests per operation, one at a time | under load | oldest answer after a write, ms | the write shown after, ms | instants keep their offsets |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
      ...rows.flatMap(({ operation, sides: s }) =>
        Object.entries(s).map(
          ([name, r]) =>
            `| ${operation.name} | ${name} | ${fmt(r.rate, 1)} | ${fmt(r.p99, 1)} | ${r.failed} | ${perOp(r.cost)} | ${fmt(r.underLoad, 2)} | ${fmt(r.oldest)} | ${r.shownAfter === null ? `more than ${fmt(PROBE_DEADLINE_MS)}` : fmt(r.shownAfter)} | ${r.offsets ? 'no (rewritten in UTC)' : 'yes'} |`,
        ),
      ),
      '',
      'req/s divided by req/s (the targets: facility-ops at least 2x the same-freshness configuration, with no more upstream ' +
        'requests per operation; facility-ops with UPSTREAM_MAX_STALE_MS=1000 at least 2x the response cache of 1 s):',
      '',
      `| operation | ${pairs.map(([ourName, name]) => `${ourName} / ${name}`).join(' | ')} |`,
      `|---|${pairs.map(() => '---:').join('|')}|`,
      ...rows.map(
        ({ operation, ratios }) =>
          `| ${operation.name} | ${ratios.map((ratio) => `${fmt(ratio, 2)}x`).join(' | ')} |`,
      ),
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

/**
 * A sentence for the report when the HTTP cache kept nothing (no 304s, no fewer upstream requests
 * than the defaults in any operation): the upstream's answers are not storable for it.
 */
function keptNothing(rows, cached, defaults) {
  const none = rows.every(
    ({ sides: s }) => s[cached].cost.notModified === 0 && s[cached].cost.all >= s[defaults].cost.all,
  );
  return none
    ? 'Here the HTTP cache kept nothing: the upstream sends an ETag but no Cache-Control, and a shared cache may ' +
        'not store an answer to a request with an Authorization header without public, s-maxage or must-revalidate ' +
        '(RFC 9111 3.5; the plugin passes no policy options to http-cache-semantics), so every read goes to the ' +
        'upstream unconditionally. '
    : '';
}

const hivePackageVersion = (pkg) =>
  JSON.parse(fs.readFileSync(path.join(HIVE, 'node_modules', pkg, 'package.json'), 'utf8')).version;

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
