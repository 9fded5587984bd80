'use strict';
/* global fetch */
/**
 * `npm run bench`: seeds a temporary SQLite database with the command line (`facility-ops seed
 * --scale N`, plus a 10,000-row company loaded with `facility-ops import`), starts `facility-ops
 * serve` and a bare Fastify route in child processes, and measures them with autocannon: each
 * scenario and a bare route answering a constant body of its size, 2 s warm-up of each, then rounds
 * of the bare route followed by the scenario. Prints a Markdown table and writes it to
 * bench/results/latest.md.
 *
 * Options (after `npm run bench --`): --scale N (default 100: 1,000,000 rate changes in the demo
 * company), --duration S (5: seconds of each side in each round), --rounds N (3), --connections N
 * (10), --keep (keep the temporary database), --only TEXT (measure only the scenarios whose name
 * contains TEXT), --store postgres (seed and serve on a schema of its own in the PostgreSQL at
 * 127.0.0.1:5432; results in bench/results/latest-postgres.md). Unknown options throw.
 */
const { Buffer } = require('node:buffer');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { URL, URLSearchParams } = require('node:url');
const autocannon = require('autocannon');
const Database = require('better-sqlite3');
const { Pool } = require('pg');
const { parseOptions } = require('./common');
const { companyDataset } = require('./generate');

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'facility-ops.js');
const BENCH_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  OUTBOX_WORKER: 'false',
};

const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** One statement on the PostgreSQL database itself (the schema's creation and removal). */
async function pgAdmin(text) {
  const pool = new Pool({ connectionString: PG_URL, max: 1 });
  try {
    await pool.query(text);
  } finally {
    await pool.end();
  }
}

function parseArgs(argv) {
  const options = parseOptions(argv, {
    scale: 100,
    duration: 5,
    rounds: 3,
    connections: 10,
    keep: false,
    only: '',
    store: 'sqlite',
  });
  if (!['sqlite', 'postgres'].includes(options.store)) throw new Error('--store must be sqlite or postgres');
  return options;
}

const log = (line) => process.stderr.write(`${line}\n`);
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Runs one command of the command line; its output goes to stderr unless captured. */
function cli(args, env, capture = false) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', capture ? 'pipe' : 2, 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`facility-ops ${args.join(' ')} exited with ${result.status}`);
  return result.stdout;
}

function createClient(env, companyId) {
  const out = cli(['clients', 'create', '--company', companyId, '--name', 'bench', '--json'], env, true);
  return JSON.parse(out.trim().split('\n').pop()).bearer_token;
}

/** Starts a child process and resolves with the first http:// address it prints. */
function startChild(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const address = /(http:\/\/[^\s"]+)/.exec(line)?.[1];
      if (address) resolve({ child, address: address.replace(/\/$/, '') });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * One row from its rounds ({ floor, result }: the bare route's and the scenario's autocannon results
 * of one round): mean req/s of each side, the latencies of the round whose req/s is the median (the
 * lower of the two middle rounds when their number is even), failures summed, and the median of the
 * per-round ratios scenario / bare route.
 */
function summarize(rounds) {
  const rate = (result) => result.requests.average;
  const byRate = [...rounds].sort((x, y) => rate(x.result) - rate(y.result));
  const { latency } = byRate[Math.floor((byRate.length - 1) / 2)].result;
  return {
    rate: mean(rounds.map((round) => rate(round.result))),
    p50: latency.p50,
    p99: latency.p99,
    failed: rounds.reduce((sum, { result }) => sum + result.non2xx + result.errors + result.timeouts, 0),
    floorRate: mean(rounds.map((round) => rate(round.floor))),
    share: median(rounds.map((round) => rate(round.result) / rate(round.floor))),
  };
}

function cannon(options) {
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

async function fetchOnce(url, headers) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.toString().slice(0, 300)}`);
  return body;
}

/** Read-only queries of the seeded database: `?` placeholders, rows as objects. */
function reader(store) {
  if (store.file) {
    const db = new Database(store.file, { readonly: true });
    return { all: async (text, ...params) => db.prepare(text).all(...params), close: async () => db.close() };
  }
  const pool = new Pool({ connectionString: store.url, max: 1 });
  return {
    all: async (text, ...params) => {
      let n = 0;
      return (
        await pool.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    },
    close: () => pool.end(),
  };
}

/** What the scenarios need from the seeded database: companies, a facility, a creator, a day. */
async function survey(store, smallCompanyId) {
  const db = reader(store);
  const one = async (text, ...params) => (await db.all(text, ...params))[0];
  try {
    const large = await one(
      'select company_id, count(*) as n from rate_changes group by company_id order by n desc limit 1',
    );
    const small = await one('select count(*) as n from rate_changes where company_id = ?', smallCompanyId);
    const facility = await one(
      `select f.id from facilities f join invoiceable_items i on i.facility_id = f.id
       where f.company_id = ? group by f.id order by count(*) desc, f.id limit 1`,
      large.company_id,
    );
    const creator = await one(
      `select created_by from rate_change_creator_daily_counts where company_id = ?
       group by created_by order by sum(entries) desc limit 1`,
      large.company_id,
    );
    const days = await db.all(
      'select day from rate_change_daily_counts where company_id = ? and entries > 0 order by day',
      large.company_id,
    );
    const day = (row) => (row.day instanceof Date ? row.day.toISOString().slice(0, 10) : String(row.day));
    return {
      large: { companyId: large.company_id, rows: Number(large.n), facilityId: facility.id },
      small: { companyId: smallCompanyId, rows: Number(small.n) },
      createdBy: creator.created_by,
      day: day(days[Math.floor(days.length / 2)]),
      days: days.map(day),
      total: Number((await one('select count(*) as n from rate_changes')).n),
    };
  } finally {
    await db.close();
  }
}

/** EXPLAIN QUERY PLAN of every statement one rate change page runs, captured from the repository. */
async function explainPage(file, window) {
  const { openStore } = require(path.join(ROOT, 'dist', 'store', 'database'));
  const { SqlRateChangesRepository } = require(
    path.join(ROOT, 'dist', 'store', 'repositories', 'rate-changes.repository'),
  );
  const store = openStore(`sqlite:${file}`);
  const handle = store.sqlite;
  const statements = [];
  const prepare = handle.prepare.bind(handle);
  handle.prepare = (text) => {
    const statement = prepare(text);
    const all = statement.all.bind(statement);
    statement.all = (...params) => {
      statements.push({ text, params: params.flat() });
      return all(...params);
    };
    return statement;
  };
  await new SqlRateChangesRepository(store.db, store.arrays, store.bytes).listingInWindow(window, 0, 500);
  handle.prepare = prepare;
  const plans = statements.map(({ text, params }) => ({
    sql: text
      .replace(/\s+/g, ' ')
      .replace(/(\?, ){8,}\?/g, '?, ... ?')
      .trim(),
    plan: handle
      .prepare(`explain query plan ${text}`)
      .all(...params)
      .map((row) => row.detail),
  }));
  await store.close();
  return plans;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-bench-'));
  const file = path.join(dir, 'bench.db');
  // PostgreSQL: a schema of its own in the database at 127.0.0.1:5432, dropped at the end.
  const schema = `bench_${process.pid}_${Date.now()}`;
  const store =
    options.store === 'postgres'
      ? { url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
      : { file, url: `sqlite:${file}` };
  const env = { ...BENCH_ENV, DATABASE_URL: store.url };
  const children = [];
  if (options.store === 'postgres') await pgAdmin(`create schema ${schema}`);
  try {
    const started = Date.now();
    log(
      `seeding ${options.store === 'postgres' ? `PostgreSQL schema ${schema}` : file} at scale ${options.scale}`,
    );
    cli(['seed', '--scale', String(options.scale)], env);
    const small = companyDataset({
      key: 'small',
      name: 'Small Storage',
      seed: 7,
      facilities: 10,
      tenants: 100,
      changes: 10,
    });
    const smallFile = path.join(dir, 'small-company.json');
    fs.writeFileSync(smallFile, JSON.stringify(small.dataset));
    cli(['import', smallFile], env);
    const seedSeconds = (Date.now() - started) / 1000;
    const world = await survey(store, small.companyId);
    const tokens = {
      large: createClient(env, world.large.companyId),
      small: createClient(env, world.small.companyId),
    };

    const service = await startChild([CLI, 'serve'], { ...env, PORT: '0', HOST: '127.0.0.1' });
    children.push(service.child);

    const bearer = (token) => ({ authorization: `Bearer ${token}` });
    const rcu = (company, params) =>
      `${service.address}/v1/companies/${company.companyId}/rate_change_updates?${new URLSearchParams(params)}`;
    const whole = {
      updated_after: '2000-01-01T00:00:00Z',
      updated_before: '2100-01-01T00:00:00Z',
      per_page: '500',
    };
    const nextDay = new Date(Date.parse(world.day) + 86_400_000).toISOString().slice(0, 10);
    const oneDay = {
      updated_after: `${world.day}T00:00:00Z`,
      updated_before: `${nextDay}T00:00:00Z`,
      per_page: '500',
    };
    const { large } = world;
    // Each request a different day: rows scattered over the table, as real windows are.
    const dayWindow = (day) => {
      const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
      return { updated_after: `${day}T00:00:00Z`, updated_before: `${next}T00:00:00Z`, per_page: '500' };
    };
    const randomDayPath = () => {
      const url = new URL(rcu(large, dayWindow(world.days[Math.floor(Math.random() * world.days.length)])));
      return url.pathname + url.search;
    };
    const rows = (company) => `company of ${fmt(company.rows)} rows`;
    const scenarios = [
      {
        name: 'GET flippers',
        url: `${service.address}/v1/${large.facilityId}/flippers`,
        headers: bearer(tokens.large),
      },
      {
        name: 'GET invoiceable_items (default page)',
        url: `${service.address}/v1/${large.facilityId}/invoiceable_items`,
        headers: bearer(tokens.large),
        kept: true,
      },
      {
        name: `GET rate_change_updates, per_page 500, ${rows(world.small)}, whole history`,
        url: rcu(world.small, whole),
        headers: bearer(tokens.small),
        counted: true,
        kept: true,
      },
      {
        name: `GET rate_change_updates, per_page 500, ${rows(large)}, whole history`,
        url: rcu(large, whole),
        headers: bearer(tokens.large),
        counted: true,
        kept: true,
      },
      {
        name: `GET rate_change_updates, per_page 500, ${rows(large)}, created_by=${world.createdBy}`,
        url: rcu(large, { ...whole, created_by: String(world.createdBy) }),
        headers: bearer(tokens.large),
        counted: true,
      },
      {
        name: `GET rate_change_updates, per_page 500, ${rows(large)}, one day (${world.day})`,
        url: rcu(large, oneDay),
        headers: bearer(tokens.large),
        counted: true,
      },
      {
        name: `GET rate_change_updates, per_page 500, ${rows(large)}, a random day per request`,
        url: rcu(large, oneDay),
        headers: bearer(tokens.large),
        randomPath: randomDayPath,
        kept: true,
      },
    ];
    if (options.only !== '') {
      const chosen = scenarios.filter((s) => s.name.includes(options.only));
      if (chosen.length === 0) throw new Error(`--only ${options.only}: no scenario has that in its name`);
      scenarios.splice(0, scenarios.length, ...chosen);
    }
    for (const scenario of scenarios) {
      const body = await fetchOnce(scenario.url, scenario.headers);
      scenario.bytes = body.length;
      if (scenario.counted) scenario.total = JSON.parse(body).meta.pagination.total_entries;
      scenario.bodyFile = path.join(dir, `body-${scenarios.indexOf(scenario)}.json`);
      fs.writeFileSync(scenario.bodyFile, body);
    }
    // The same lists from an instance that keeps no page: what building one costs on every request.
    const uncached = await startChild([CLI, 'serve'], {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      PAGE_CACHE_MB: '0',
    });
    children.push(uncached.child);
    for (const scenario of scenarios.filter((s) => s.kept)) {
      scenarios.push({
        ...scenario,
        name: `${scenario.name}, page cache off`,
        url: scenario.url.replace(service.address, uncached.address),
        randomPath: scenario.randomPath,
      });
    }
    // One bare route per response size, each answering that scenario's own body.
    const constant = await startChild(
      [path.join(__dirname, 'constant-server.js'), ...scenarios.map((s) => s.bodyFile)],
      {},
    );
    children.push(constant.child);
    const load = (target) => {
      const base = { url: target.url, headers: target.headers, connections: options.connections };
      if (target.randomPath) {
        base.requests = [{ setupRequest: (request) => ({ ...request, path: target.randomPath() }) }];
      }
      return base;
    };

    const loadBefore = os.loadavg()[0];
    const results = [];
    for (const [index, scenario] of scenarios.entries()) {
      const bare = { url: `${constant.address}/constant/${index}`, headers: {} };
      log(`warming up: ${scenario.name}`);
      for (const target of [bare, scenario]) await cannon({ ...load(target), duration: 2 });
      // Interleaved rounds: a change in the machine's load falls on the scenario and its bare route alike.
      const rounds = [];
      for (let round = 0; round < options.rounds; round++) {
        log(`measuring (round ${round + 1}/${options.rounds}): ${scenario.name}`);
        const floor = await cannon({ ...load(bare), duration: options.duration });
        const result = await cannon({ ...load(scenario), duration: options.duration });
        rounds.push({ floor, result });
      }
      results.push({ ...scenario, summary: summarize(rounds) });
    }
    const loadAfter = os.loadavg()[0];

    const windowOf = (params) => ({
      companyId: large.companyId,
      after: new Date(params.updated_after).toISOString(),
      before: new Date(params.updated_before).toISOString(),
      createdBy: null,
    });
    // The plans are SQLite's (EXPLAIN QUERY PLAN of the repository's own statements).
    const plans = store.file
      ? [
          ['whole history', await explainPage(file, windowOf(whole))],
          [`one day (${world.day})`, await explainPage(file, windowOf(oneDay))],
        ]
      : [];

    const table = results.map(({ name, bytes, total, summary }) => {
      const share = 100 * summary.share;
      const cells = [
        name,
        total === undefined ? '' : fmt(total),
        fmt(bytes),
        fmt(summary.rate, 1),
        fmt(summary.p50, 1),
        fmt(summary.p99, 1),
        String(summary.failed),
        fmt(summary.floorRate, 1),
        `${fmt(share, share < 10 ? 1 : 0)}%`,
      ];
      return `| ${cells.join(' | ')} |`;
    });
    const cpus = os.cpus();
    const report = [
      '# Benchmark results',
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; Node ${process.version}; ` +
        `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}; 1-minute load average ` +
        `${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the measurements.`,
      '',
      `${store.file ? 'SQLite (WAL)' : 'PostgreSQL (127.0.0.1:5432, a schema of its own)'} seeded with ` +
        `\`facility-ops seed --scale ${options.scale}\` plus a 10,000-row company ` +
        `(${fmt(world.total)} rate changes in all; ${seedSeconds.toFixed(0)} s to load). \`facility-ops serve\` ` +
        'with NODE_ENV=production, LOG_LEVEL=warn, rate limit off; bearer authentication. autocannon on the same ' +
        `machine, ${options.connections} connections.`,
      '',
      'Each row is measured beside a bare Fastify route answering a constant body of the same size ' +
        `(\`bench/constant-server.js\`): a 2 s warm-up of each, then ${options.rounds} ` +
        `round${options.rounds === 1 ? '' : 's'} of ${options.duration} s of the bare route followed by ` +
        `${options.duration} s of the scenario. req/s and bare route req/s are means over the rounds; p50 ` +
        'and p99 come from the round whose req/s is the median (the lower middle one if the rounds are even); ' +
        'failed is summed over the rounds; "of bare route" is the median of the per-round ratios ' +
        '(scenario req/s / bare route req/s of the same round).',
      '',
      '| scenario | entries in window | response bytes | req/s | p50 ms | p99 ms | failed | bare route req/s | of bare route |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...table,
      '',
      ...plans.flatMap(([label, statements]) => [
        `## Query plans of one page: ${rows(large)}, ${label}`,
        '',
        ...statements.flatMap((p) => [
          '```sql',
          p.sql,
          '```',
          '',
          ...p.plan.map((line) => `    ${line}`),
          '',
        ]),
      ]),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    const out = store.file ? 'latest.md' : 'latest-postgres.md';
    fs.writeFileSync(path.join(__dirname, 'results', out), `${report}\n`);
    log(`written to bench/results/${out}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (options.store === 'postgres' && !options.keep)
      await pgAdmin(`drop schema if exists ${schema} cascade`);
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${options.store === 'postgres' ? `PostgreSQL schema ${schema} and ` : ''}${dir}`);
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
