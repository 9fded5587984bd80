'use strict';
/** What the benchmarks share: output, statistics, autocannon, and the built service in a child process. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');

/**
 * Production mode needs a key for the secrets it stores (SECRETS_KEY): each run makes one, so the
 * services measured keep their secrets encrypted as production does.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  SECRETS_KEY: require('node:crypto').randomBytes(32).toString('base64'),
};

const log = (line) => process.stderr.write(`${line}\n`);
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const cannon = (options) =>
  new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );

/**
 * The rounds of one side as one row: mean req/s over the rounds, the latencies of the round whose
 * req/s is the median (the lower of the two middle rounds when their number is even), failures summed.
 */
const summarize = (results) => {
  const byRate = [...results].sort((x, y) => x.requests.average - y.requests.average);
  const { latency } = byRate[Math.floor((byRate.length - 1) / 2)];
  return {
    rate: mean(results.map((r) => r.requests.average)),
    p50: latency.p50,
    p99: latency.p99,
    failed: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
};

/**
 * The built service (`dist`) on a free loopback port, in a child process, its heap kept through quiet
 * spells as the command line keeps it (dist/ops/keep-heap) and started with the command line's
 * process settings (dist/ops/launch); resolves with its address.
 * `execArgv`: Node's own options for the child (`--cpu-prof`, say).
 */
function startService(dist, env, execArgv = []) {
  const script = `
    require(${JSON.stringify(path.join(dist, 'ops/keep-heap'))});
    const { loadConfig } = require(${JSON.stringify(path.join(dist, 'config'))});
    const { openStore } = require(${JSON.stringify(path.join(dist, 'store/database'))});
    const { buildApp } = require(${JSON.stringify(path.join(dist, 'app'))});
    (async () => {
      const config = loadConfig(process.env);
      const store = openStore(config.databaseUrl);
      const { app } = await buildApp({ config, store });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      process.stdout.write(JSON.stringify({ address }) + '\\n');
      process.on('SIGTERM', () => app.close().then(() => store.close()).then(() => process.exit(0)));
    })().catch((error) => { process.stderr.write(String(error.stack) + '\\n'); process.exit(1); });`;
  // Started as `facility-ops serve` starts (dist/ops/launch.js), where the build has that module.
  let childArgv = execArgv;
  let childEnv = { ...process.env, ...env };
  const launch = path.join(dist, 'ops', 'launch.js');
  if (fs.existsSync(launch)) {
    const relaunch = require(launch).relaunchFor(['serve'], execArgv, childEnv);
    if (relaunch !== null) ({ execArgv: childArgv, env: childEnv } = relaunch);
  }
  const child = spawn(process.execPath, [...childArgv, '-e', script], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    readline
      .createInterface({ input: child.stdout })
      .once('line', (line) => resolve({ child, address: JSON.parse(line).address }));
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
}

/**
 * Command line options against their defaults: a boolean default makes a flag, a number one a
 * whole number >= 1 (>= 0 for the options `mayBeZero` names), `dist` a path, anything else a
 * string. An unknown option throws.
 */
function parseOptions(argv, defaults, mayBeZero = []) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !Object.hasOwn(defaults, name))
      throw new Error(`unknown option ${argv[i]}`);
    if (typeof defaults[name] === 'boolean') options[name] = true;
    else if (typeof defaults[name] === 'number') {
      const value = Number(argv[++i]);
      const least = mayBeZero.includes(name) ? 0 : 1;
      if (!Number.isInteger(value) || value < least)
        throw new Error(`--${name} must be a whole number >= ${least}`);
      options[name] = value;
    } else if (name === 'dist') options[name] = path.resolve(String(argv[++i] ?? ''));
    else options[name] = String(argv[++i] ?? '');
  }
  return options;
}

/** The machine's load averages, as a row of the report records them. */
const loadAverage = () =>
  require('node:os')
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

module.exports = {
  ROOT,
  PRODUCTION,
  log,
  fmt,
  mean,
  median,
  cannon,
  summarize,
  startService,
  loadAverage,
  parseOptions,
};
