'use strict';
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
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseOptions } = require('./common');
const {
  ROOT,
  BENCH_ENV,
  log,
  fmt,
  cliOf,
  startChild,
  summarize,
  cannon,
  cannonWithCpu,
  fetchOnce,
  seedDatabase,
  rowsLabel,
  windows,
  scenarioList,
  choose,
  pageCacheOff,
  loadOf,
  pgAdmin,
  storeFor,
} = require('./scenarios');

const CLI = cliOf(ROOT);

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

/** EXPLAIN QUERY PLAN of every statement one rate change page runs, captured from the repository. */
async function explainPage(file, window) {
  const { openStore } = require(path.join(ROOT, 'dist', 'store', 'database'));
  const { SqlRateChangesRepository } = require(
    path.join(ROOT, 'dist', 'areas', 'rate-changes', 'rate-changes.repository'),
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
  // PostgreSQL: a schema of its own in the database at 127.0.0.1:5432, dropped at the end.
  const schema = `bench_${process.pid}_${Date.now()}`;
  const store = storeFor(options.store, dir, schema);
  const file = store.file;
  const env = { ...BENCH_ENV, DATABASE_URL: store.url };
  const children = [];
  if (options.store === 'postgres') await pgAdmin(`create schema ${schema}`);
  try {
    log(
      `seeding ${options.store === 'postgres' ? `PostgreSQL schema ${schema}` : file} at scale ${options.scale}`,
    );
    const { world, tokens, seedSeconds } = await seedDatabase({ env, store, scale: options.scale, dir });

    const service = await startChild([CLI, 'serve'], { ...env, PORT: '0', HOST: '127.0.0.1' });
    children.push(service.child);

    const { whole, oneDay } = windows(world);
    const { large } = world;
    const all = scenarioList(service.address, world, tokens).map((s) => ({ ...s, pid: service.child.pid }));
    const scenarios = choose(all, options.only).map((index) => all[index]);
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
      scenarios.push(pageCacheOff(scenario, service.address, uncached.address, uncached.child.pid));
    }
    // One bare route per response size, each answering that scenario's own body.
    const constant = await startChild(
      [path.join(__dirname, 'constant-server.js'), ...scenarios.map((s) => s.bodyFile)],
      {},
    );
    children.push(constant.child);
    const load = (target) => loadOf(target, options.connections);

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
        const result = await cannonWithCpu({ ...load(scenario), duration: options.duration }, scenario.pid);
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
        summary.cpu === null ? '' : fmt(summary.cpu, 1),
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
        '(scenario req/s / bare route req/s of the same round). "CPU µs/req" is the user and system CPU ' +
        "time the service's process spent per request answered, read from /proc, the mean over the rounds: " +
        'it does not count the time the service waited for a core, so it moves less from run to run.',
      '',
      '| scenario | entries in window | response bytes | req/s | p50 ms | p99 ms | failed | bare route req/s | of bare route | CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...table,
      '',
      ...plans.flatMap(([label, statements]) => [
        `## Query plans of one page: ${rowsLabel(large)}, ${label}`,
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
