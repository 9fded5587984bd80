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
 * 127.0.0.1:5432; results in bench/results/latest-postgres.md), --store both (seed both, the SQLite
 * file and a PostgreSQL schema, at the same scale and serve each; check once that the two answer
 * every scenario alike, request ids aside; then measure each scenario in rounds of the bare route,
 * the SQLite service and the PostgreSQL service, and report each store's req/s, share of the bare
 * route and CPU, and PostgreSQL / SQLite; results in bench/results/latest-both.md), --floor (each
 * row with the page cache off is also measured on `bench/floor-server.js`, the service's domain
 * services and store under a bare route, on each store; its answers are checked against the
 * service's once). Unknown options throw.
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
  normalized,
  difference,
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

/** Each store as the reports name it: short, and what was seeded. */
const STORES = {
  sqlite: { name: 'SQLite', seeded: 'SQLite (WAL)' },
  postgres: { name: 'PostgreSQL', seeded: 'PostgreSQL (127.0.0.1:5432, a schema of its own)' },
};

/** The file under bench/results each --store writes. */
const REPORTS = { sqlite: 'latest.md', postgres: 'latest-postgres.md', both: 'latest-both.md' };

function parseArgs(argv) {
  const options = parseOptions(argv, {
    scale: 100,
    duration: 5,
    rounds: 3,
    connections: 10,
    keep: false,
    only: '',
    store: 'sqlite',
    floor: false,
  });
  if (!Object.hasOwn(REPORTS, options.store)) throw new Error('--store must be sqlite, postgres or both');
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

/**
 * One store of the run, created (a PostgreSQL schema first, added to `schemas` to be dropped at the
 * end) and seeded: its kind, store and environment, and what seedDatabase resolves with.
 */
async function seedSide(kind, dir, schema, scale, schemas) {
  const store = storeFor(kind, dir, schema);
  const env = { ...BENCH_ENV, DATABASE_URL: store.url };
  if (store.schema) {
    await pgAdmin(`create schema ${schema}`);
    schemas.push(schema);
  }
  log(`seeding ${store.schema ? `PostgreSQL schema ${schema}` : store.file} at scale ${scale}`);
  return { kind, store, env, ...(await seedDatabase({ env, store, scale, dir })) };
}

/** `facility-ops serve` on a side's store (`extra`: more settings) in a child process, kept in `children`. */
async function serve(side, children, extra = {}) {
  const service = await startChild([CLI, 'serve'], { ...side.env, PORT: '0', HOST: '127.0.0.1', ...extra });
  children.push(service.child);
  return service;
}

/**
 * Starts a side's service and the chosen scenarios against it, each with its answer's size, its
 * total when counted and its answer in `bodyFile` (in `dir`, the name starting with `prefix`); then
 * an instance with the page cache off, and the kept lists again against it. Resolves with the rows.
 */
async function startSide(side, options, dir, children, prefix) {
  const service = await serve(side, children);
  const all = scenarioList(service.address, side.world, side.tokens).map((s) => ({
    ...s,
    pid: service.child.pid,
  }));
  const scenarios = choose(all, options.only).map((index) => all[index]);
  for (const [index, scenario] of scenarios.entries()) {
    const body = await fetchOnce(scenario.url, scenario.headers);
    scenario.bytes = body.length;
    if (scenario.counted) scenario.total = JSON.parse(body).meta.pagination.total_entries;
    scenario.bodyFile = path.join(dir, `${prefix}body-${index}.json`);
    fs.writeFileSync(scenario.bodyFile, body);
  }
  // The same lists from an instance that keeps no page: what building one costs on every request.
  const uncached = await serve(side, children, { PAGE_CACHE_MB: '0' });
  const floor = options.floor ? await floorServer(side, children) : null;
  for (const scenario of scenarios.filter((s) => s.kept)) {
    const cold = pageCacheOff(scenario, service.address, uncached.address, uncached.child.pid);
    if (floor) cold.storeFloor = pageCacheOff(scenario, service.address, floor.address, floor.child.pid);
    scenarios.push(cold);
  }
  return scenarios;
}

/**
 * `--floor`: bench/floor-server.js on a side's store, started as the service starts itself (the same
 * young generation and glibc settings, src/ops/launch.ts), in a child process kept in `children`.
 */
async function floorServer(side, children) {
  const { SEMI_SPACE_FLAG, MALLOC_TUNABLES } = require(path.join(ROOT, 'dist', 'ops', 'launch.js'));
  const floor = await startChild([SEMI_SPACE_FLAG, path.join(__dirname, 'floor-server.js'), side.store.url], {
    ...side.env,
    GLIBC_TUNABLES: MALLOC_TUNABLES,
  });
  children.push(floor.child);
  return floor;
}

/** A body's data without its envelope's meta, but its pagination: what the floor must answer alike. */
const dataOf = (body) => {
  const { meta, ...data } = JSON.parse(body);
  return JSON.stringify({ ...data, pagination: meta?.pagination ?? null });
};

/**
 * `--floor`: each floor's answer, fetched once, against the service's of the same row; a row whose
 * data differ throws, since its floor would then measure other work.
 */
async function checkFloors(rows) {
  for (const row of rows) {
    for (const target of row.targets) {
      if (!target.storeFloor) continue;
      const [service, floor] = [
        await fetchOnce(target.url, target.headers),
        await fetchOnce(target.storeFloor.url, target.storeFloor.headers),
      ];
      if (dataOf(service) !== dataOf(floor)) throw new Error(`the floor answers other data: ${target.name}`);
    }
  }
}

/**
 * `--store both`: each row's answers from the two stores, fetched once more from the instance each
 * row measures, compared with their request ids blanked; a row whose answers differ gets `differ`,
 * where they part.
 */
async function compareAnswers(rows, names) {
  for (const row of rows) {
    const bodies = [];
    for (const target of row.targets) bodies.push(normalized(await fetchOnce(target.url, target.headers)));
    if (bodies[0] !== bodies[1]) {
      row.differ = difference(bodies[0], bodies[1], names);
      log(`ANSWERS DIFFER: ${row.name}: ${row.differ}`);
    }
  }
}

/** One bare route per body file, in a child process kept in `children`: resolves with their targets. */
async function bareRoutes(files, children) {
  const constant = await startChild([path.join(__dirname, 'constant-server.js'), ...files], {});
  children.push(constant.child);
  return files.map((_, index) => ({ url: `${constant.address}/constant/${index}`, headers: {} }));
}

/**
 * One row measured: a 2 s warm-up of the bare route and of each target, then interleaved rounds, each
 * the bare route followed by every target in order, so a change in the machine's load falls on all of
 * them alike. Resolves with each target's summary over the rounds, against the bare route.
 */
async function measureRow(name, bare, targets, options) {
  const load = (target) => loadOf(target, options.connections);
  log(`warming up: ${name}`);
  for (const target of [bare, ...targets]) await cannon({ ...load(target), duration: 2 });
  const rounds = [];
  for (let round = 0; round < options.rounds; round++) {
    log(`measuring (round ${round + 1}/${options.rounds}): ${name}`);
    const floor = await cannon({ ...load(bare), duration: options.duration });
    const results = [];
    for (const target of targets) {
      results.push(await cannonWithCpu({ ...load(target), duration: options.duration }, target.pid));
    }
    rounds.push({ floor, results });
  }
  return targets.map((_, index) =>
    summarize(rounds.map(({ floor, results }) => ({ floor, result: results[index] }))),
  );
}

/** The report's lines of SQLite's plans (EXPLAIN QUERY PLAN) of one page of the large company. */
async function planLines(file, world) {
  const { whole, oneDay } = windows(world);
  const { large } = world;
  const windowOf = (params) => ({
    companyId: large.companyId,
    after: new Date(params.updated_after).toISOString(),
    before: new Date(params.updated_before).toISOString(),
    createdBy: null,
  });
  const plans = [
    ['whole history', await explainPage(file, windowOf(whole))],
    [`one day (${world.day})`, await explainPage(file, windowOf(oneDay))],
  ];
  return plans.flatMap(([label, statements]) => [
    `## Query plans of one page: ${rowsLabel(large, 'demo')}, ${label}`,
    '',
    ...statements.flatMap((p) => ['```sql', p.sql, '```', '', ...p.plan.map((line) => `    ${line}`), '']),
  ]);
}

const percent = (share) => `${fmt(100 * share, share < 0.1 ? 1 : 0)}%`;
const cpuCell = (summary) => (summary.cpu === null ? '' : fmt(summary.cpu, 1));
const roundsOf = (options) =>
  `${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${options.duration} s`;

/** CPU µs/req, as both reports explain it. */
const CPU_TEXT =
  '"CPU µs/req" is the user and system CPU ' +
  "time the service's process spent per request answered, read from /proc, the mean over the rounds: " +
  'it does not count the time the service waited for a core, so it moves less from run to run.';

/** The lines every report opens with, after its title: when, where, what was seeded and served. */
function headLines({ options, sides, loadBefore, loadAfter }) {
  const cpus = os.cpus();
  const both = sides.length > 1;
  const loaded = both
    ? sides.map((side) => `${STORES[side.kind].name} ${side.seedSeconds.toFixed(0)} s`).join(', ')
    : `${sides[0].seedSeconds.toFixed(0)} s`;
  return [
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; Node ${process.version}; ` +
      `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}; 1-minute load average ` +
      `${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the measurements.`,
    '',
    `${sides.map((side) => STORES[side.kind].seeded).join(' and ')}${both ? ', each' : ''} seeded with ` +
      `\`facility-ops seed --scale ${options.scale}\` plus a 10,000-row company ` +
      `(${fmt(sides[0].world.total)} rate changes ${both ? 'in each' : 'in all'}; ${loaded} to load). ` +
      `\`facility-ops serve\`${both ? ' on each' : ''} ` +
      'with NODE_ENV=production, LOG_LEVEL=warn, rate limit off; bearer authentication. autocannon on the same ' +
      `machine, ${options.connections} connections.`,
  ];
}

/** The report of one store: a row per scenario with its latencies, failures and bare route. */
function storeReport(run) {
  const { options, rows, plans } = run;
  const table = rows.map(({ name, bytes, total, summaries: [summary] }) => {
    const cells = [
      name,
      total === undefined ? '' : fmt(total),
      fmt(bytes),
      fmt(summary.rate, 1),
      fmt(summary.p50, 1),
      fmt(summary.p99, 1),
      String(summary.failed),
      fmt(summary.floorRate, 1),
      percent(summary.share),
      cpuCell(summary),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '# Benchmark results',
    '',
    ...headLines(run),
    '',
    'Each row is measured beside a bare Fastify route answering a constant body of the same size ' +
      `(\`bench/constant-server.js\`): a 2 s warm-up of each, then ${roundsOf(options)} of the bare route ` +
      `followed by ${options.duration} s of the scenario. req/s and bare route req/s are means over the ` +
      'rounds; p50 and p99 come from the round whose req/s is the median (the lower middle one if the ' +
      'rounds are even); failed is summed over the rounds; "of bare route" is the median of the per-round ' +
      `ratios (scenario req/s / bare route req/s of the same round). ${CPU_TEXT}`,
    '',
    '| scenario | entries in window | response bytes | req/s | p50 ms | p99 ms | failed | bare route req/s | of bare route | CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...table,
    '',
    ...plans,
  ];
}

/** The report of `--store both`: a row per scenario with each store's req/s, share and CPU, and their ratio. */
function bothReport(run) {
  const { options, sides, rows, plans } = run;
  const names = sides.map((side) => STORES[side.kind].name);
  const table = rows.map((row) => {
    const [first, second] = row.summaries;
    const sizes = [...new Set(row.targets.map((target) => target.bytes))];
    const cells = [
      row.name,
      sizes.map((size) => fmt(size)).join(' / '),
      ...row.summaries.flatMap((summary) => [fmt(summary.rate, 1), percent(summary.share), cpuCell(summary)]),
      fmt(second.rate / first.rate, 2),
      row.differ ? '**answers differ**' : 'identical',
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const differing = rows.filter((row) => row.differ);
  const failing = rows.filter((row) => row.summaries.some((summary) => summary.failed > 0));
  const note = (lines) => (lines.length === 0 ? [] : [...lines, '']);
  return [
    `# Benchmark results: ${names.join(' and ')}`,
    '',
    ...headLines(run),
    '',
    `Each row is measured on both stores beside a bare Fastify route answering a constant body as large as ` +
      `${names[0]}'s answer (\`bench/constant-server.js\`): a 2 s warm-up of each of the three, then ` +
      `${roundsOf(options)} of the bare route followed by ${options.duration} s of the ${names[0]} service and ` +
      `${options.duration} s of the ${names[1]} service, in that order every round. req/s are means over the ` +
      'rounds; each store\'s "of bare route" is the median of the per-round ratios (its req/s / bare route ' +
      `req/s of the same round); "${names[1]} / ${names[0]}" is the ratio of the two req/s means (below 1, ` +
      `${names[1]} answers fewer requests a second). "answers" compares the two stores' bodies of the ` +
      'scenario, fetched once from each before the measurements, with their request ids blanked; response bytes are ' +
      `${names[0]}'s, then ${names[1]}'s where they differ. ` +
      `${CPU_TEXT} The query plans are ${names[0]}'s.`,
    '',
    ...note(
      run.sameWorld
        ? []
        : [
            '> **The two stores were seeded differently** (companies, facility, creator or days): ' +
              `the rows are named after ${names[0]}'s, and their answers may differ.`,
          ],
    ),
    ...note(
      differing.length === 0
        ? []
        : [
            `> **ANSWERS DIFFER** on ${differing.length} scenario${differing.length === 1 ? '' : 's'}: ` +
              'the two stores do not give the same bodies, so their rates compare different work.',
          ],
    ),
    `| scenario | response bytes | ${names
      .map((name) => `${name} req/s | ${name} of bare route | ${name} CPU µs/req`)
      .join(' | ')} | ${names[1]} / ${names[0]} | answers |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...table,
    '',
    ...note(differing.map((row) => `- ${row.name}: ${row.differ}`)),
    ...note(
      failing.map(
        (row) =>
          `- ${row.name}: failed requests ` +
          row.summaries.map((summary, index) => `${names[index]} ${summary.failed}`).join(', '),
      ),
    ),
    ...plans,
  ];
}

/**
 * `--floor`: for each row with the page cache off, each store's floor (bench/floor-server.js) beside
 * its service: req/s, share of the bare route, CPU, and the service's req/s over its floor's.
 */
function floorReport(run) {
  const { sides, rows } = run;
  if (!run.options.floor) return [];
  const names = sides.map((side) => STORES[side.kind].name);
  const table = rows
    .filter((row) => row.storeFloorSummaries.length > 0)
    .map((row) => {
      const cells = [
        row.name,
        ...row.storeFloorSummaries.flatMap((floor, index) => [
          fmt(floor.rate, 1),
          percent(floor.share),
          cpuCell(floor),
          fmt(row.summaries[index].rate / floor.rate, 2),
        ]),
      ];
      if (sides.length > 1) cells.push(fmt(row.storeFloorSummaries[1].rate / row.summaries[0].rate, 2));
      return `| ${cells.join(' | ')} |`;
    });
  const both = sides.length > 1;
  return [
    '',
    "## The store's floor",
    '',
    'Each row with the page cache off, measured in the same rounds on `bench/floor-server.js`: the ' +
      "service's own domain services and store (dist/) reading the same page on every request under a bare " +
      'Fastify route, with no authentication, request id, revision check, page cache, logging, metrics or ' +
      "hooks, and an envelope of the pagination alone; its data checked against the service's answer once. " +
      '"service / floor" is the req/s of the service over that of its floor: what all the service does ' +
      "around the read leaves of the floor's rate." +
      (both
        ? ` "${names[1]} floor / ${names[0]} service" is about the most ${names[1]} could reach of ${names[0]}'s row by any change outside the read.`
        : ''),
    '',
    `| scenario | ${names
      .map((name) => `${name} floor req/s | of bare route | CPU µs/req | ${name} service / floor`)
      .join(' | ')}${both ? ` | ${names[1]} floor / ${names[0]} service` : ''} |`,
    `|---|${names.map(() => '---:|---:|---:|---:|').join('')}${both ? '---:|' : ''}`,
    ...table,
  ];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-bench-'));
  // PostgreSQL: a schema of its own in the database at 127.0.0.1:5432, dropped at the end.
  const schema = `bench_${process.pid}_${Date.now()}`;
  const schemas = [];
  const children = [];
  try {
    // --store both: SQLite first, then PostgreSQL, in the seeding, in each round and in the report.
    const kinds = options.store === 'both' ? ['sqlite', 'postgres'] : [options.store];
    const sides = [];
    for (const kind of kinds) sides.push(await seedSide(kind, dir, schema, options.scale, schemas));
    const prefix = (side) => (sides.length === 1 ? '' : `${side.kind}-`);
    for (const side of sides) side.scenarios = await startSide(side, options, dir, children, prefix(side));

    // Row i is the same scenario on every side (each side's list is made from its own seeded data).
    const sameWorld = sides.every((side) => JSON.stringify(side.world) === JSON.stringify(sides[0].world));
    if (!sameWorld)
      log('WARNING: the two stores were seeded differently (companies, facility, creator or days)');
    if (sides.some((side) => side.scenarios.length !== sides[0].scenarios.length))
      throw new Error(`--only ${options.only}: the stores' data chose different scenarios`);
    const rows = sides[0].scenarios.map((scenario, index) => ({
      ...scenario,
      targets: sides.map((side) => side.scenarios[index]),
    }));
    if (options.floor) {
      await checkFloors(rows);
      // A row's floors are measured after its services, in each round: summaries beyond the sides'.
      for (const row of rows)
        row.storeFloors = row.targets.flatMap((target) => (target.storeFloor ? [target.storeFloor] : []));
    }
    if (sides.length > 1)
      await compareAnswers(
        rows,
        sides.map((side) => STORES[side.kind].name),
      );
    // One bare route per response size, each answering that scenario's own body (the first side's).
    const bare = await bareRoutes(
      rows.map((row) => row.bodyFile),
      children,
    );

    const loadBefore = os.loadavg()[0];
    for (const [index, row] of rows.entries()) {
      const summaries = await measureRow(
        row.name,
        bare[index],
        [...row.targets, ...(row.storeFloors ?? [])],
        options,
      );
      row.summaries = summaries.slice(0, row.targets.length);
      row.storeFloorSummaries = summaries.slice(row.targets.length);
    }
    const loadAfter = os.loadavg()[0];

    const sqlite = sides.find((side) => side.store.file);
    const plans = sqlite ? await planLines(sqlite.store.file, sqlite.world) : [];
    const run = { options, sides, rows, plans, sameWorld, loadBefore, loadAfter };
    const report = [...(sides.length === 1 ? storeReport : bothReport)(run), ...floorReport(run)].join('\n');
    process.stdout.write(`${report}\n`);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    const out = REPORTS[options.store];
    fs.writeFileSync(path.join(__dirname, 'results', out), `${report}\n`);
    log(`written to bench/results/${out}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (!options.keep) {
      for (const name of schemas) await pgAdmin(`drop schema if exists ${name} cascade`);
      fs.rmSync(dir, { recursive: true, force: true });
    } else log(`kept ${schemas.map((name) => `PostgreSQL schema ${name} and `).join('')}${dir}`);
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
