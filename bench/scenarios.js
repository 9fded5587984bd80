'use strict';
/* global fetch */
/**
 * What `bench/run.js` and `bench/compare.js` share: the command line of one checkout (its
 * `bin/facility-ops.js`), the seeded database and what the scenarios need from it, the scenario
 * list, the child processes, autocannon, the rows' statistics and the comparison of two answers.
 */
const { Buffer } = require('node:buffer');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { URL, URLSearchParams } = require('node:url');
const autocannon = require('autocannon');
const Database = require('better-sqlite3');
const { Pool } = require('pg');
const { companyDataset } = require('./generate');

const ROOT = path.resolve(__dirname, '..');
const BENCH_ENV = {
  ...require('./common').PRODUCTION,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  OUTBOX_WORKER: 'false',
};

/** The PostgreSQL the benchmarks seed and serve with `--store postgres`, each in a schema of its own. */
const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** One statement on the PostgreSQL database itself (a schema's creation and removal). */
async function pgAdmin(text) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: PG_URL, max: 1 });
  try {
    await pool.query(text);
  } finally {
    await pool.end();
  }
}

/** Where a benchmark's side keeps its data: a SQLite file in `dir`, or a PostgreSQL schema. */
function storeFor(kind, dir, schema) {
  return kind === 'postgres'
    ? { schema, url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
    : { file: path.join(dir, 'bench.db'), url: `sqlite:${path.join(dir, 'bench.db')}` };
}

const log = (line) => process.stderr.write(`${line}\n`);
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The command line of the checkout at `root`. */
const cliOf = (root) => path.join(root, 'bin', 'facility-ops.js');

/**
 * Runs one command of the command line of the checkout at `root` (this one unless told); its output
 * goes to stderr unless captured.
 */
function cli(args, env, capture = false, root = ROOT) {
  const result = spawnSync(process.execPath, [cliOf(root), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', capture ? 'pipe' : 2, 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`facility-ops ${args.join(' ')} exited with ${result.status}`);
  return result.stdout;
}

function createClient(env, companyId, root = ROOT) {
  const out = cli(
    ['clients', 'create', '--company', companyId, '--name', 'bench', '--json'],
    env,
    true,
    root,
  );
  return JSON.parse(out.trim().split('\n').pop()).bearer_token;
}

/** Starts a child process in `cwd` and resolves with the first http:// address it prints. */
function startChild(args, env, cwd = ROOT) {
  const child = spawn(process.execPath, args, {
    cwd,
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

const rate = (result) => result.requests.average;
const failures = (result) => result.non2xx + result.errors + result.timeouts;

/**
 * One side over its rounds (autocannon results): mean req/s, the latencies of the round whose req/s
 * is the median (the lower of the two middle rounds when their number is even), failures summed,
 * and the mean CPU microseconds a request when the results hold them (cannonWithCpu).
 */
function summarizeSide(results) {
  const byRate = [...results].sort((x, y) => rate(x) - rate(y));
  const { latency } = byRate[Math.floor((byRate.length - 1) / 2)];
  return {
    rate: mean(results.map(rate)),
    p50: latency.p50,
    p99: latency.p99,
    failed: results.reduce((sum, result) => sum + failures(result), 0),
    cpu: cpuPerRequest(results),
  };
}

/**
 * One row from its rounds ({ floor, result }: the bare route's and the scenario's autocannon results
 * of one round): mean req/s of each side, the latencies of the round whose req/s is the median (the
 * lower of the two middle rounds when their number is even), failures summed, and the median of the
 * per-round ratios scenario / bare route.
 */
function summarize(rounds) {
  return {
    ...summarizeSide(rounds.map((round) => round.result)),
    floorRate: mean(rounds.map((round) => rate(round.floor))),
    share: median(rounds.map((round) => rate(round.result) / rate(round.floor))),
  };
}

function cannon(options) {
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** Clock ticks a second of /proc's CPU times (`getconf CLK_TCK`, 100 where it cannot say). */
let ticksPerSecond = null;

/**
 * The CPU seconds, user and system, process `pid` has used so far (Linux's /proc/<pid>/stat); null
 * where there is no /proc.
 */
function cpuTimes(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  if (ticksPerSecond === null) {
    const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    ticksPerSecond = Number(answer.stdout) > 0 ? Number(answer.stdout) : 100;
  }
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
}

/**
 * An autocannon run whose result also holds `cpu`: the microseconds of CPU, user and system, the
 * process `pid` spent on each request answered (null without /proc). Steadier than req/s on a
 * shared machine, since it does not count the time the service waited for a core.
 */
async function cannonWithCpu(options, pid) {
  const before = cpuTimes(pid);
  const result = await cannon(options);
  const after = cpuTimes(pid);
  const answered = result.requests.total;
  result.cpu =
    before === null || after === null || answered === 0
      ? null
      : {
          user: ((after.user - before.user) / answered) * 1e6,
          system: ((after.system - before.system) / answered) * 1e6,
        };
  return result;
}

/** Mean CPU microseconds a request (user + system) over autocannon results of cannonWithCpu; null without. */
function cpuPerRequest(results) {
  if (results.some((result) => result.cpu === null || result.cpu === undefined)) return null;
  return mean(results.map((result) => result.cpu.user + result.cpu.system));
}

async function fetchOnce(url, headers) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.toString().slice(0, 300)}`);
  return body;
}

/** A body with its request id blanked: the one part two answers of the same page may differ in. */
const normalized = (body) => body.toString('utf8').replace(/"request_id":"[^"]*"/g, '"request_id":""');

/**
 * Where two normalized bodies part, as a short account for the report; `names` are the two sides'
 * (base and head unless told).
 */
function difference(first, second, names = ['base', 'head']) {
  let at = 0;
  while (at < first.length && at < second.length && first[at] === second[at]) at++;
  const excerpt = (text) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 60));
  return (
    `with request ids blanked, ${names[0]} ${fmt(Buffer.byteLength(first))} bytes, ${names[1]} ${fmt(Buffer.byteLength(second))} bytes; ` +
    `first difference at character ${fmt(at)}: ${names[0]} ${excerpt(first)}, ${names[1]} ${excerpt(second)}`
  );
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

/** What the scenarios need from the seeded database: companies, a facility, a ledger, a creator, a day. */
async function survey(store, smallCompanyId) {
  const db = reader(store);
  const one = async (text, ...params) => (await db.all(text, ...params))[0];
  try {
    // The demo data's largest company (the imported small one can have as many rate changes).
    const large = await one(
      `select company_id, count(*) as n from rate_changes where company_id <> ?
       group by company_id order by n desc limit 1`,
      smallCompanyId,
    );
    const small = await one('select count(*) as n from rate_changes where company_id = ?', smallCompanyId);
    const facility = await one(
      `select f.id from facilities f join invoiceable_items i on i.facility_id = f.id
       where f.company_id = ? group by f.id order by count(*) desc, f.id limit 1`,
      large.company_id,
    );
    // A ledger of the large company with a policy in force, the most services and discounts first.
    const ledger = await one(
      `select l.id, l.facility_id from ledgers l join facilities f on f.id = l.facility_id
       where f.company_id = ? and exists (select 1 from ledger_insurances i where i.ledger_id = l.id and i.cancel_date is null)
       order by (select count(*) from ledger_services s where s.ledger_id = l.id)
              + (select count(*) from ledger_discounts d where d.ledger_id = l.id) desc, l.id limit 1`,
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
      large: {
        companyId: large.company_id,
        rows: Number(large.n),
        facilityId: facility.id,
        ledger: { id: ledger.id, facilityId: ledger.facility_id },
      },
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

/**
 * Seeds the database of `env` with the command line of the checkout at `root`: `seed --scale N`, then
 * a 10,000-row company (written to `dir` and loaded with `import`), then one client application for
 * each company. Resolves with what the scenarios need and the seconds the loading took.
 */
/**
 * The day the demo data is made up to, the same for every side of a run: yesterday (UTC). On
 * today's date the generator stops its records at the moment it runs, so two seeds a few seconds
 * apart would differ, and two sides' answers with them.
 */
const SEED_DAY = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

async function seedDatabase({ env, store, scale, dir, root = ROOT }) {
  const started = Date.now();
  cli(['seed', '--scale', String(scale), '--today', SEED_DAY], env, false, root);
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
  cli(['import', smallFile], env, false, root);
  const seedSeconds = (Date.now() - started) / 1000;
  const world = await survey(store, small.companyId);
  const tokens = {
    large: createClient(env, world.large.companyId, root),
    small: createClient(env, world.small.companyId, root),
  };
  return { world, tokens, seedSeconds };
}

/** The demo company (seeded) or the imported one, and its rows: the two are told apart at any scale. */
const rowsLabel = (company, which) => `${which} company of ${fmt(company.rows)} rows`;

/** The windows the rate change scenarios ask for. */
function windows(world) {
  const whole = {
    updated_after: '2000-01-01T00:00:00Z',
    updated_before: '2100-01-01T00:00:00Z',
    per_page: '500',
  };
  const dayWindow = (day) => {
    const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    return { updated_after: `${day}T00:00:00Z`, updated_before: `${next}T00:00:00Z`, per_page: '500' };
  };
  return { whole, oneDay: dayWindow(world.day), dayWindow };
}

/**
 * The scenarios against the service at `address`: name, url, headers, and `counted` (the answer has a
 * total), `kept` (also measured on an instance with the page cache off), `randomPath` (each request
 * another path).
 */
function scenarioList(address, world, tokens) {
  const bearer = (token) => ({ authorization: `Bearer ${token}` });
  const rcu = (company, params) =>
    `${address}/v1/companies/${company.companyId}/rate_change_updates?${new URLSearchParams(params)}`;
  const { whole, oneDay, dayWindow } = windows(world);
  const { large } = world;
  // Each request a different day: rows scattered over the table, as real windows are.
  const randomDayPath = () => {
    const url = new URL(rcu(large, dayWindow(world.days[Math.floor(Math.random() * world.days.length)])));
    return url.pathname + url.search;
  };
  return [
    {
      name: 'GET flippers',
      url: `${address}/v1/${large.facilityId}/flippers`,
      headers: bearer(tokens.large),
    },
    {
      name: 'GET invoiceable_items (default page)',
      url: `${address}/v1/${large.facilityId}/invoiceable_items`,
      headers: bearer(tokens.large),
      kept: true,
    },
    {
      name: `GET rate_change_updates, per_page 500, ${rowsLabel(world.small, 'imported')}, whole history`,
      url: rcu(world.small, whole),
      headers: bearer(tokens.small),
      counted: true,
      kept: true,
    },
    {
      name: `GET rate_change_updates, per_page 500, ${rowsLabel(large, 'demo')}, whole history`,
      url: rcu(large, whole),
      headers: bearer(tokens.large),
      counted: true,
      kept: true,
    },
    {
      name: `GET rate_change_updates, per_page 500, ${rowsLabel(large, 'demo')}, created_by=${world.createdBy}`,
      url: rcu(large, { ...whole, created_by: String(world.createdBy) }),
      headers: bearer(tokens.large),
      counted: true,
    },
    {
      name: `GET rate_change_updates, per_page 500, ${rowsLabel(large, 'demo')}, one day (${world.day})`,
      url: rcu(large, oneDay),
      headers: bearer(tokens.large),
      counted: true,
    },
    {
      name: `GET rate_change_updates, per_page 500, ${rowsLabel(large, 'demo')}, a random day per request`,
      url: rcu(large, oneDay),
      headers: bearer(tokens.large),
      randomPath: randomDayPath,
      kept: true,
    },
    {
      name: 'GET insurance_services_and_discounts (a ledger with a policy)',
      url: `${address}/v1/${large.ledger.facilityId}/ledgers/${large.ledger.id}/insurance_services_and_discounts`,
      headers: bearer(tokens.large),
      kept: true,
    },
  ];
}

/**
 * The positions of the scenarios whose name holds `only`, or one of its parts between `|` (all when
 * it is empty); none is an error.
 */
function choose(scenarios, only) {
  if (only === '') return scenarios.map((_, index) => index);
  const parts = only.split('|');
  const chosen = scenarios.flatMap((s, index) =>
    parts.some((part) => s.name.includes(part)) ? [index] : [],
  );
  if (chosen.length === 0) throw new Error(`--only ${only}: no scenario has that in its name`);
  return chosen;
}

/**
 * A kept scenario asked of the instance with the page cache off at `uncachedAddress` (`pid`: that
 * instance's process, whose CPU is read).
 */
const pageCacheOff = (scenario, serviceAddress, uncachedAddress, pid) => ({
  ...scenario,
  name: `${scenario.name}, page cache off`,
  url: scenario.url.replace(serviceAddress, uncachedAddress),
  randomPath: scenario.randomPath,
  pid,
});

/** The autocannon options of one target: its url and headers, another path per request if it asks. */
function loadOf(target, connections) {
  const base = { url: target.url, headers: target.headers, connections };
  if (target.randomPath) {
    base.requests = [{ setupRequest: (request) => ({ ...request, path: target.randomPath() }) }];
  }
  return base;
}

module.exports = {
  PG_URL,
  pgAdmin,
  storeFor,
  ROOT,
  BENCH_ENV,
  log,
  fmt,
  cliOf,
  cli,
  createClient,
  startChild,
  mean,
  median,
  rate,
  summarizeSide,
  summarize,
  cannon,
  cannonWithCpu,
  cpuPerRequest,
  cpuTimes,
  fetchOnce,
  normalized,
  difference,
  reader,
  survey,
  seedDatabase,
  rowsLabel,
  windows,
  scenarioList,
  choose,
  pageCacheOff,
  loadOf,
};
