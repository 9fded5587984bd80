#!/usr/bin/env node
'use strict';
/**
 * The crash test of a Node.js line: starts and stops the service on an embedded SQLite file again and
 * again (`facility-ops start`, as `npm start` does, the first start loading the demo data), sends the
 * first requests of `data/first-requests.md` to each, stops it with Ctrl-C (SIGINT), and fails on
 * any exit that is not a clean 0 (an abort in a native clean-up is exit 134 / SIGABRT). Then it runs
 * the suites that use worker threads and native clean-up (live events, signing, the worker pool)
 * again and again.
 *
 *   scripts/with-node 24 node scripts/crash-test.js [--starts 20] [--suite-runs 3]
 *     [--suites test/live,test/areas/esign/signing,test/unit/worker-pool.test.ts]
 *
 * Needs the build (`npm run build`) and curl. Ends by itself: every wait has a deadline.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setTimeout, clearTimeout } = require('node:timers');

const ROOT = path.resolve(__dirname, '..');
const START_DEADLINE_MS = 180_000;
const STOP_DEADLINE_MS = 60_000;

function options(argv) {
  const result = {
    starts: 20,
    suiteRuns: 3,
    suites: ['test/live', 'test/areas/esign/signing', 'test/unit/worker-pool.test.ts'],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--starts') result.starts = Number(value);
    else if (name === '--suite-runs') result.suiteRuns = Number(value);
    else if (name === '--suites') result.suites = value.split(',').filter(Boolean);
    else throw new Error(`unknown option ${name}`);
    if (value === undefined || (name !== '--suites' && !Number.isInteger(Number(value)))) {
      throw new Error(`${name} needs a value`);
    }
  }
  return result;
}

/** Resolves with the first match of `pattern` in the growing text of `stream`, or rejects at the deadline. */
function waitFor(child, read, pattern, deadlineMs, what) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (match) finish(null, match);
    };
    const onExit = (code, signal) =>
      finish(new Error(`exited (code ${code}, signal ${signal}) while waiting for ${what}`));
    const timer = setTimeout(() => finish(new Error(`no ${what} within ${deadlineMs} ms`)), deadlineMs);
    const finish = (error, value) => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value);
    };
    child.stdout.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

function exited(child, deadlineMs) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, deadlineMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** The curl lines of the first-requests page, as a user pastes them. */
function firstRequests(folder) {
  const text = fs.readFileSync(path.join(folder, 'data', 'first-requests.md'), 'utf8');
  return text.split('\n').filter((line) => line.startsWith('curl '));
}

async function oneStart(folder, round, state) {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'facility-ops.js'), 'start'], {
    cwd: folder,
    env: { ...process.env, PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const problems = [];
  try {
    // The banner's last line: by then the URL and, on the first start, the token are out, and
    // Ctrl-C finishes requests in flight (before it, the start is still under way).
    await waitFor(child, () => stdout, /Stop it with Ctrl-C\./, START_DEADLINE_MS, 'start');
    const [, url] = /facility-ops is running at (http:\/\/\S+)/.exec(stdout);
    const token = /bearer token\s+(\S+)/.exec(stdout);
    if (token) state.token = token[1];
    if (!state.token) throw new Error('no bearer token printed on the first start');
    for (const line of firstRequests(folder)) {
      const curl = spawnSync(
        'bash',
        ['-c', line.replace(/^curl -s /, 'curl -s --max-time 60 -o /dev/null ')],
        {
          cwd: folder,
          env: { ...process.env, BASE: url, TOKEN: state.token, S: 'none', D: 'none' },
          encoding: 'utf8',
        },
      );
      if (curl.status !== 0) problems.push(`curl exited ${curl.status}: ${line.slice(0, 120)}`);
    }
  } catch (error) {
    problems.push(error.message);
  }
  child.kill('SIGINT');
  const { code, signal } = await exited(child, STOP_DEADLINE_MS);
  if (code !== 0 || signal !== null) problems.push(`stopped with code ${code}, signal ${signal}`);
  if (/Assertion failed|Segmentation fault|FATAL ERROR/.test(stderr + stdout)) {
    problems.push(
      `native failure: ${(stderr.match(/.*(Assertion failed|Segmentation|FATAL).*/) || [''])[0]}`,
    );
  }
  return problems.map((problem) => `start ${round}: ${problem}`);
}

function runSuites(suites, run) {
  const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
  const result = spawnSync(process.execPath, [jest, ...suites], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  const summary = output.match(/^Tests:.*$/m);
  process.stdout.write(
    `  suites run ${run}: exit ${result.status}${result.signal ? ` (${result.signal})` : ''}; ${summary ? summary[0] : 'no summary'}\n`,
  );
  const problems = [];
  if (result.status !== 0 || result.signal) {
    problems.push(`suites run ${run}: exit ${result.status}, signal ${result.signal}`);
    process.stdout.write(output.split('\n').slice(-60).join('\n') + '\n');
  }
  if (/Assertion failed|Segmentation fault/.test(output)) problems.push(`suites run ${run}: native failure`);
  return problems;
}

async function main() {
  const { starts, suiteRuns, suites } = options(process.argv.slice(2));
  if (!fs.existsSync(path.join(ROOT, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` first');
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-crash-test-'));
  process.stdout.write(`crash test on Node.js ${process.version}: ${starts} starts in ${folder}\n`);
  const problems = [];
  const state = { token: null };
  try {
    for (let round = 1; round <= starts; round += 1) {
      const found = await oneStart(folder, round, state);
      problems.push(...found);
      const said = found.map((problem) => problem.slice(`start ${round}: `.length));
      process.stdout.write(`  start ${round}: ${found.length === 0 ? 'clean' : said.join('; ')}\n`);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  for (let run = 1; run <= suiteRuns; run += 1) problems.push(...runSuites(suites, run));
  const line = `crash test on Node.js ${process.version}: ${starts} starts, ${suiteRuns} runs of ${suites.join(' ')}`;
  if (problems.length > 0) {
    process.stdout.write(`${line}: FAILED\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`${line}: no abort, every stop clean\n`);
}

main().catch((error) => {
  process.stderr.write(`crash test: ${error.message}\n`);
  process.exit(2);
});
