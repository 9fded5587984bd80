'use strict';
/**
 * `npm run bench:kept-copies`: each small infrastructure copy the service keeps beside the
 * well-kept library that does the same job, measured on one machine in one run, with what each
 * answers where the answers differ. The libraries are installed (once) into
 * <os.tmpdir()>/facility-ops-kept-copies, not into the project: they are what the copies were
 * measured against, not what the service runs. The copies are read from `dist/` (`npm run build`).
 * Results go to bench/results/kept-copies.md; the decisions they back are in docs/performance.md.
 */
const { spawnSync } = require('node:child_process');
const { setTimeout } = require('node:timers');
const { URLSearchParams } = require('node:url');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, log, fmt, median, cannon, loadAverage } = require('./common');

const LIBRARIES = {
  '@escape.tech/graphql-armor-max-depth': '2.4.2',
  '@escape.tech/graphql-armor-max-aliases': '2.6.2',
  '@fastify/rate-limit': '11.2.0',
  cockatiel: '4.0.0',
  qs: '6.17.1',
};
const HOME = path.join(os.tmpdir(), 'facility-ops-kept-copies');

function install() {
  const want = Object.entries(LIBRARIES).map(([name, version]) => `${name}@${version}`);
  const have = (name) => fs.existsSync(path.join(HOME, 'node_modules', name, 'package.json'));
  if (Object.keys(LIBRARIES).every(have)) return;
  fs.mkdirSync(HOME, { recursive: true });
  fs.writeFileSync(path.join(HOME, 'package.json'), '{"private":true}\n');
  log(`installing ${want.join(' ')} into ${HOME}`);
  const done = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...want], {
    cwd: HOME,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (done.status !== 0) throw new Error('npm install of the libraries failed');
}

/** A library as installed for this bench; graphql and fastify are the project's own, one copy each. */
const lib = (name) => require(require.resolve(name, { paths: [HOME] }));
const built = (file) => {
  const at = path.join(ROOT, 'dist', file);
  if (!fs.existsSync(at)) throw new Error(`${at} is missing: run npm run build`);
  return require(at);
};

async function perCall(rounds, calls, fn) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await fn();
    times.push(Number(process.hrtime.bigint() - start) / calls / 1000);
  }
  return median(times);
}

async function deadlines(rows) {
  const { timeout, TimeoutStrategy, circuitBreaker, handleAll, ConsecutiveBreaker } = lib('cockatiel');
  const { withDeadline } = built('kernel/deadline.js');
  const { CircuitBreaker } = built('gateway/circuit-breaker.js');
  const policy = timeout(1000, TimeoutStrategy.Aggressive);
  const ours = new CircuitBreaker(5, 1000, { now: () => new Date() });
  const theirs = circuitBreaker(handleAll, { halfOpenAfter: 1000, breaker: new ConsecutiveBreaker(5) });
  const calls = 100_000;
  const a = await perCall(5, calls, () => withDeadline(Promise.resolve(1), 1000, 'late'));
  const b = await perCall(5, calls, () => policy.execute(() => Promise.resolve(1)));
  const slow = () => new Promise((resolve) => setTimeout(resolve, 50));
  const told = async (promise) =>
    promise.then(
      () => '(answered)',
      (error) => error.message,
    );
  rows.push([
    'kernel/deadline.ts vs cockatiel timeout',
    `${a.toFixed(2)} µs vs ${b.toFixed(2)} µs a call`,
    `"${await told(withDeadline(slow(), 10, 'the upstream did not answer within 10 ms'))}" vs "${await told(
      timeout(10, TimeoutStrategy.Aggressive).execute(slow),
    )}"`,
  ]);
  const c = await perCall(5, calls, async () => {
    if (!ours.allow()) throw new Error('open');
    await Promise.resolve(1);
    ours.succeeded();
  });
  const d = await perCall(5, calls, () => theirs.execute(() => Promise.resolve(1)));
  rows.push([
    'gateway/circuit-breaker.ts vs cockatiel circuitBreaker',
    `${c.toFixed(2)} µs vs ${d.toFixed(2)} µs a call`,
    "cockatiel times the cool-down with Date.now(); the service's breaker reads its Clock",
  ]);
}

function nestedParams(rows) {
  const qs = lib('qs');
  const { nestParams } = built('rest/nested-params.js');
  const pairs = (text) => [...new URLSearchParams(text)];
  for (const text of [
    'items[][id]=a&items[][quantity]=1&items[][id]=b&items[][quantity]=2',
    'a[b][c][d][e][f][g][h][i]=deep',
  ]) {
    let ours;
    try {
      ours = JSON.stringify(nestParams(pairs(text)));
    } catch (error) {
      ours = `refused: ${error.message}`;
    }
    const theirs = JSON.stringify(qs.parse(text, { depth: 8, parameterLimit: 1000 }));
    rows.push(['rest/nested-params.ts vs qs', text, `${ours} vs ${theirs}`]);
  }
}

function queryLimits(rows) {
  const { buildSchema, parse, validate } = require('graphql');
  const { queryLimitsRule } = built('graphql/limits.js');
  const { maxDepthRule } = lib('@escape.tech/graphql-armor-max-depth');
  const { maxAliasesRule } = lib('@escape.tech/graphql-armor-max-aliases');
  const schema = buildSchema('type Query { node: Node } type Node { id: ID, child: Node, name: String }');
  let fragments = 'fragment F0 on Node { a0: id b0: name }\n';
  for (let i = 1; i <= 12; i++)
    fragments += `fragment F${i} on Node { ...F${i - 1} child { ...F${i - 1} } }\n`;
  const document = parse(`query Q { node { ...F12 } }\n${fragments}`);
  let rejected = [];
  const onReject = [(_context, error) => rejected.push(error.message)];
  const armor = [
    maxDepthRule({ n: 12, propagateOnRejection: false, onReject }),
    maxAliasesRule({ n: 30, propagateOnRejection: false, onReject }),
  ];
  const ours = [queryLimitsRule({ maxDepth: 12, maxAliases: 30 })];
  const time = (rules) => {
    const times = [];
    let messages = [];
    for (let round = 0; round < 5; round++) {
      rejected = [];
      const start = process.hrtime.bigint();
      const errors = validate(schema, document, rules);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      messages = [...errors.map((error) => error.message), ...new Set(rejected)];
    }
    return { ms: median(times), messages };
  };
  const a = time(ours);
  const b = time(armor);
  rows.push([
    'graphql/limits.ts vs GraphQL Armor max-depth and max-aliases (a 12-level fragment bomb)',
    `${a.ms.toFixed(2)} ms vs ${b.ms.toFixed(2)} ms`,
    `${JSON.stringify(a.messages)} vs ${JSON.stringify(b.messages)}`,
  ]);
}

async function rateLimits(rows) {
  const Fastify = require('fastify');
  const { MemoryRateLimitStore, retryAfterOf } = built('ops/rate-limit.js');
  const LIMIT = 1_000_000_000;
  const app = async (withLibrary) => {
    const server = Fastify({ logger: false });
    server.addHook('onRequest', (request, _reply, done) => {
      request.caller = { clientId: 'client-1' };
      done();
    });
    if (withLibrary) {
      const off = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false };
      await server.register(lib('@fastify/rate-limit'), {
        max: LIMIT,
        timeWindow: 60_000,
        hook: 'onRequest',
        keyGenerator: (request) => request.caller.clientId,
        addHeaders: { ...off, 'retry-after': true },
        addHeadersOnExceeding: off,
      });
    } else {
      const store = new MemoryRateLimitStore();
      server.addHook('onRequest', (request, reply, done) => {
        const retryAfter = retryAfterOf(store.hitNow(request.caller.clientId, 60_000), LIMIT);
        if (retryAfter !== null) return reply.code(429).header('Retry-After', String(retryAfter)).send({});
        done();
      });
    }
    server.get('/x', async () => ({ data: { ok: true } }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    return server;
  };
  const ours = await app(false);
  const theirs = await app(true);
  const rate = async (server) =>
    (
      await cannon({
        url: `http://127.0.0.1:${server.server.address().port}/x`,
        connections: 10,
        duration: 3,
      })
    ).requests.average;
  await rate(ours);
  await rate(theirs);
  const results = { ours: [], theirs: [] };
  for (let round = 0; round < 5; round++) {
    const order = round % 2 ? ['theirs', 'ours'] : ['ours', 'theirs'];
    for (const side of order) results[side].push(await rate(side === 'ours' ? ours : theirs));
  }
  await ours.close();
  await theirs.close();
  rows.push([
    'ops/rate-limit.ts (in-memory store) vs @fastify/rate-limit',
    `${fmt(median(results.ours))} vs ${fmt(median(results.theirs))} req/s`,
    'same limit and key; the service also fails open with a reason on /readyz and counts the signing pages',
  ]);
}

(async () => {
  install();
  const rows = [];
  const before = loadAverage();
  await deadlines(rows);
  nestedParams(rows);
  queryLimits(rows);
  await rateLimits(rows);
  const lines = [
    `Kept copies against their libraries (${new Date().toISOString()}, Node ${process.version}, load ${before} -> ${loadAverage()})`,
    '',
    '| copy vs library | measured | answers (ours vs the library) |',
    '|---|---|---|',
    ...rows.map((cells) => `| ${cells.map((cell) => String(cell).replace(/\|/g, '\\|')).join(' | ')} |`),
  ];
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'kept-copies.md'), `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
})().catch((error) => {
  log(error.stack);
  process.exit(1);
});
