'use strict';
/* global fetch */
/**
 * `npm run bench:profile`: where an answer's CPU time goes. Seeds a temporary database (SQLite,
 * or a fresh schema of the PostgreSQL at 127.0.0.1:5432 with --store postgres), starts the built
 * service with the page cache off (PAGE_CACHE_MB=0, so every answer is built from the database;
 * with --kept the cache stays on and the answers are kept ones) under `--cpu-prof`, drives one
 * scenario with autocannon, stops the service and reads its profile: each sample is charged to the
 * stage of the innermost frame that names one (auth, request id, revision check, parsing, SQL, row
 * mapping, time zones, presenting, serializing and the envelope's ETag, GraphQL execution, logging,
 * metrics, the app's hooks, routing, HTTP). Prints a Markdown table of the stages' shares of busy
 * time, and writes it to bench/results/profile-<store>[-kept].md.
 *
 * Options: --store sqlite|postgres (sqlite), --scenario NAME (every one: flippers, rate-changes,
 * items, insurance (a ledger with a policy, two services and a discount), graphql-items: the same page as bench/graphql.js asks it, graphql-navigation), --kept, --duration S (10), --connections N (10), --dist DIR, --keep
 * (keep the profiles). Unknown options throw.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { URLSearchParams } = require('node:url');
const { ROOT, PRODUCTION, cannon, fmt, loadAverage, log, parseOptions, startService } = require('./common');
const { ACTIONS_DAY, actionsPart, companyParts } = require('./generate');
const { ITEMS_QUERY } = require('./graphql');

const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

function parseArgs(argv) {
  const options = parseOptions(argv, {
    store: 'sqlite',
    scenario: '',
    duration: 10,
    connections: 10,
    dist: path.join(ROOT, 'dist'),
    keep: false,
    kept: false,
  });
  if (!['sqlite', 'postgres'].includes(options.store)) throw new Error('--store must be sqlite or postgres');
  return options;
}

/**
 * Stages by the frame that names them, tried innermost first: the first rule a frame's URL or
 * function matches charges the sample. Native work (JSON.stringify, a SQLite step) shows in the
 * frame that called it.
 */
const STAGES = [
  ['logging', /\/pino|\/src\/logger|\/dist\/logger/],
  ['metrics', /prom-client|\/ops\/metrics/],
  ['auth', /\/auth\/|\/ops\/rate-limit/],
  ['request id', /\/edge\/request-id/],
  ['revision check', /\/caching\/|revisions\.repository|\/rest\/kept-pages/],
  ['time zones', /\/kernel\/time/],
  ['presenting', /\.presenter\.js|\.contract\.js/],
  ['serializing, envelope and ETag', /\/rest\/envelope|fast-json-stringify|serialize/],
  ['row mapping', /\.repository\.js|\/store\/repositories\//],
  ['SQL', /kysely|better-sqlite3|\/pg\/|pg-protocol|pg-pool|\/store\/database/],
  ['GraphQL parsing and validation', /graphql\/(language|validation)/],
  ['GraphQL execution', /graphql\/|graphql-jit|@apollo|type-graphql|dataloader|\/dist\/graphql\//],
  ['domain services', /\/dist\/areas\/|\/dist\/kernel\//],
  ["the app's hooks (shape check, authentication's call)", /\/dist\/app\.js/],
  ['routing', /find-my-way/],
  ['parsing, validation and Fastify', /fastify|ajv|querystring|\/dist\/edge\/|\/dist\/rest\//],
  [
    'sockets (HTTP server and database client)',
    /node:_http|node:net|node:internal\/stream|node:stream|node:internal\/http/,
  ],
];

function stagesOf(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map();
  const stageOf = (id) => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    const frame = byId.get(id).callFrame;
    const name = frame.functionName;
    let stage = null;
    if (name === '(idle)') stage = 'idle';
    else if (name === '(garbage collector)') stage = 'garbage collection';
    else {
      const where = `${frame.url} ${name}`;
      stage = STAGES.find(([, rule]) => rule.test(where))?.[0] ?? null;
      if (stage === null) stage = parent.has(id) ? stageOf(parent.get(id)) : 'other';
    }
    stageOfNode.set(id, stage);
    return stage;
  };
  const time = new Map();
  profile.samples.forEach((id, i) => {
    const stage = stageOf(id);
    time.set(stage, (time.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  time.delete('idle');
  const busy = [...time.values()].reduce((a, b) => a + b, 0);
  return { busy, shares: [...time].sort((a, b) => b[1] - a[1]).map(([stage, t]) => [stage, t / busy]) };
}

async function seed(options, databaseUrl, dir) {
  const { openStore } = require(path.join(options.dist, 'store/database'));
  const { migrateToLatest } = require(path.join(options.dist, 'store/migrator'));
  const { importDataset, refreshPlannerStatistics } = require(
    path.join(options.dist, 'store/dataset/dataset.import'),
  );
  const { DATASET_PLANS } = require(path.join(options.dist, 'modules'));
  const store = openStore(databaseUrl);
  const out = {};
  const token = randomBytes(24).toString('base64url');
  try {
    await migrateToLatest(store.db);
    const plan = {
      seed: 42,
      name: 'Bench Storage',
      key: 'bench',
      facilities: 20,
      tenants: 100,
      changes: 10,
      out,
    };
    // Written as `facility-ops import` writes, statistics included (PostgreSQL plans from them).
    const counts = {};
    const load = async (part) => {
      for (const [table, rows] of Object.entries(await importDataset(store, DATASET_PLANS, part))) {
        counts[table] = (counts[table] ?? 0) + rows;
      }
    };
    for (const part of companyParts(plan)) await load(part);
    const actions = actionsPart(out.facilityId, 30);
    await load(actions);
    out.ledgerId = actions.ledgers[0].id;
    await refreshPlannerStatistics(store, counts);
    await importDataset(store, DATASET_PLANS, {
      version: 1,
      client_applications: [
        {
          id: randomUUID(),
          company_id: out.companyId,
          name: 'profile',
          consumer_key: randomBytes(12).toString('hex'),
          consumer_secret: randomBytes(24).toString('base64url'),
          bearer_token: token,
        },
      ],
    });
  } finally {
    await store.close();
  }
  void dir;
  return { companyId: out.companyId, facilityId: out.facilityId, ledgerId: out.ledgerId, token };
}

function scenarios(world, address) {
  const auth = { authorization: `Bearer ${world.token}` };
  const window = {
    updated_after: '2000-01-01T00:00:00Z',
    updated_before: '2100-01-01T00:00:00Z',
    per_page: '500',
  };
  /** A GraphQL POST of `query` with `variables`, by the same caller. */
  const graphqlPost = (query, variables) => ({
    url: `${address}/graphql`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return {
    flippers: {
      name: 'GET flippers',
      request: { url: `${address}/v1/${world.facilityId}/flippers`, headers: auth },
    },
    'rate-changes': {
      name: 'GET rate_change_updates, per_page 500 of 20,000',
      request: {
        url: `${address}/v1/companies/${world.companyId}/rate_change_updates?${new URLSearchParams(window)}`,
        headers: auth,
      },
    },
    items: {
      name: 'GET invoiceable_items (40 items)',
      request: { url: `${address}/v1/${world.facilityId}/invoiceable_items`, headers: auth },
    },
    insurance: {
      name: 'GET insurance_services_and_discounts (a ledger with a policy)',
      request: {
        url: `${address}/v1/${world.facilityId}/ledgers/${world.ledgerId}/insurance_services_and_discounts`,
        headers: auth,
      },
    },
    'graphql-items': {
      name: 'GraphQL invoiceable items (40 items)',
      request: graphqlPost(ITEMS_QUERY, { id: world.facilityId }),
    },
    'graphql-navigation': {
      name: 'GraphQL rate applied actions -> ledgers (30 actions)',
      request: graphqlPost(
        `query ($id: UUID!, $day: LocalDate!) { facility(id: $id) {
            rateAppliedActions(startDate: $day, endDate: $day) { newLedgerId timeCompleted
            newLedger { insurance { id amount effectiveDate } services { id amount } discounts { id name } } } } }`,
        { id: world.facilityId, day: ACTIONS_DAY },
      ),
    },
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(options.dist, 'app.js')))
    throw new Error(`${options.dist} is not built: npm run build`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-profile-'));
  const schema = `profile_${randomBytes(6).toString('hex')}`;
  let databaseUrl = `sqlite:${path.join(dir, 'profile.db')}`;
  let pg = null;
  if (options.store === 'postgres') {
    const { Pool } = require('pg');
    pg = new Pool({ connectionString: PG_URL, max: 1 });
    await pg.query(`create schema ${schema}`);
    databaseUrl = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const loadAtStart = loadAverage();
  const rows = [];
  try {
    log(`seeding ${options.store === 'postgres' ? `schema ${schema}` : databaseUrl}`);
    const world = await seed(options, databaseUrl, dir);
    const all = scenarios(world, '');
    const names = options.scenario !== '' ? [options.scenario] : Object.keys(all);
    for (const name of names) {
      if (!all[name]) throw new Error(`--scenario ${name}: one of ${Object.keys(all).join(', ')}`);
      const profiles = path.join(dir, `profile-${name}`);
      const service = await startService(
        options.dist,
        {
          DATABASE_URL: databaseUrl,
          ...PRODUCTION,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '0',
          OUTBOX_WORKER: 'false',
          ...(options.kept ? {} : { PAGE_CACHE_MB: '0' }),
        },
        ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
      );
      const scenario = scenarios(world, service.address)[name];
      const first = await fetch(scenario.request.url, scenario.request);
      const body = await first.text();
      if (first.status !== 200 || body.includes('"errors"'))
        throw new Error(`${scenario.name} answered ${first.status}: ${body.slice(0, 300)}`);
      log(`profiling ${scenario.name} for ${options.duration} s`);
      await cannon({ ...scenario.request, connections: options.connections, duration: 1 });
      const result = await cannon({
        ...scenario.request,
        connections: options.connections,
        duration: options.duration,
      });
      await new Promise((resolve) => {
        service.child.once('exit', resolve);
        service.child.kill('SIGTERM');
      });
      const [file] = fs.readdirSync(profiles);
      rows.push({
        scenario,
        rate: result.requests.average,
        bytes: body.length,
        ...stagesOf(path.join(profiles, file)),
      });
    }
  } finally {
    if (pg) {
      await pg.query(`drop schema ${schema} cascade`);
      await pg.end();
    }
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
  const stages = [...new Set(rows.flatMap((r) => r.shares.map(([s]) => s)))];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const report = [
    `# Where ${options.kept ? 'a kept' : 'a cold'} answer's CPU time goes (${options.store === 'postgres' ? 'PostgreSQL' : 'SQLite'})`,
    '',
    `${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${os.cpus().length} x ${cpu}; load average ` +
      `${loadAtStart} at the start, ${loadAverage()} at the end. The built service, ${options.kept ? 'page cache on (kept answers)' : 'PAGE_CACHE_MB=0'}, NODE_ENV=production, ` +
      `LOG_LEVEL=warn, under --cpu-prof (which slows it); autocannon, ${options.connections} connections, ` +
      `${options.duration} s after a 1 s warm-up. Shares of the service's busy (not idle) CPU time, each sample ` +
      "charged to the innermost frame that names a stage (bench/profile.js's rules).",
    '',
    `| stage | ${rows.map((r) => r.scenario.name).join(' | ')} |`,
    `|---|${rows.map(() => '---:').join('|')}|`,
    ...stages.map(
      (stage) =>
        `| ${stage} | ${rows.map((r) => `${fmt(100 * (r.shares.find(([s]) => s === stage)?.[1] ?? 0), 1)}%`).join(' | ')} |`,
    ),
    `| req/s while profiled | ${rows.map((r) => fmt(r.rate, 0)).join(' | ')} |`,
    `| response bytes | ${rows.map((r) => fmt(r.bytes, 0)).join(' | ')} |`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  const out = `profile-${options.store}${options.kept ? '-kept' : ''}.md`;
  fs.writeFileSync(path.join(__dirname, 'results', out), `${report}\n`);
  log(`written to bench/results/${out}`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
