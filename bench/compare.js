'use strict';
/**
 * `npm run bench:compare -- --base <git ref>`: the scenarios of `bench/run.js` against two builds in
 * one run, on one machine. Head is this checkout as `npm run build` just built it (the working tree);
 * base is the commit `--base` names, checked out in a git worktree under
 * <os.tmpdir()>/facility-ops-compare/<sha> and built there with its own `npm run build` (kept for
 * the next comparison with the same commit). The worktree's node_modules is a link to head's when
 * the two package-lock.json files are equal, otherwise its own `npm ci`.
 *
 * Each side seeds a temporary SQLite database with its own command line (as run.js does) and serves
 * it with its own `facility-ops serve`; both must answer every chosen scenario byte for byte alike
 * (request ids aside), and a row says so when they do not. Each scenario is measured on a new
 * `serve` of each side, started for it and stopped after it (so no row inherits the heap, kept pages
 * or collector debt of the rows before it): a warm-up of the bare route and the two sides, then rounds
 * of the bare route and the two sides, the side first in one round second in the next, so a drift in
 * the machine's load falls on both. The side that starts first warms up first and leads the first
 * round; the next pair of processes mirrors the whole order, so an even --processes is neutral
 * between the sides (one build against itself then read 1.01 on six pairs). Prints a Markdown
 * table and writes it to bench/results/compare.md.
 *
 * Options (after `npm run bench:compare --`): --base REF (required), --scale N (1), --duration S (5:
 * seconds of each side in each round), --rounds N (3), --processes N (2: pairs of new processes per
 * scenario, one after the other, each the mirror of the one before; the row is the median of the
 * pairs' ratios, with their spread),
 * --warm-up S (20: a new process keeps getting faster for its first 15 s or so, and one measured
 * before it settles reads far from its twin; one build against itself on the kept random day read
 * 0.89-1.03 a pair after 20 s, where an earlier run on another machine read 0.75-1.07 after 5 s:
 * not measured in one run), --connections N (10),
 * --only TEXT (the scenarios whose name holds TEXT, or one of its parts between `|`), --cold-only (of
 * the kept lists chosen, only their rows with the page cache off), --store postgres (each side seeds and serves a schema of its own
 * in the PostgreSQL at 127.0.0.1:5432, dropped at the end), --base-env and --head-env NAME=VALUE[,...]
 * (settings of that side's service only: `--base HEAD --base-env FAST_PATHS=off` measures one
 * commit with and without its fast paths), --keep (keep the temporary databases), --clean (remove the
 * base's worktree and build when done: `git worktree remove --force`). Unknown options throw.
 */
const { spawnSync } = require('node:child_process');
const { setTimeout, clearTimeout } = require('node:timers');
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
  mean,
  median,
  rate,
  summarizeSide,
  cannon,
  cannonWithCpu,
  fetchOnce,
  seedDatabase,
  scenarioList,
  choose,
  pageCacheOff,
  loadOf,
  pgAdmin,
  storeFor,
  normalized,
  difference,
} = require('./scenarios');

const CACHE = path.join(os.tmpdir(), 'facility-ops-compare');

function parseArgs(argv) {
  const options = parseOptions(argv, {
    base: '',
    scale: 1,
    duration: 5,
    rounds: 3,
    processes: 2,
    'warm-up': 20,
    connections: 10,
    only: '',
    'cold-only': false,
    store: 'sqlite',
    'base-env': '',
    'head-env': '',
    keep: false,
    clean: false,
  });
  if (options.base === '') throw new Error('--base <git ref> is required: the commit to compare head with');
  if (!['sqlite', 'postgres'].includes(options.store)) throw new Error('--store must be sqlite or postgres');
  if (!Number.isInteger(options.processes) || options.processes < 1)
    throw new Error('--processes must be a whole number of at least 1');
  if (options.processes % 2 === 1 && options.processes > 1)
    log(
      `--processes ${options.processes}: an odd number of pairs leaves one order unmirrored, so the rows lean to one side`,
    );
  options.sideEnv = {
    base: settingsOf('--base-env', options['base-env']),
    head: settingsOf('--head-env', options['head-env']),
  };
  return options;
}

/** `NAME=VALUE,NAME=VALUE` as an object; throws on anything else. */
function settingsOf(option, text) {
  const settings = {};
  for (const pair of text === '' ? [] : text.split(',')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair);
    if (match === null) throw new Error(`${option}: expected NAME=VALUE[,NAME=VALUE...], got "${pair}"`);
    settings[match[1]] = match[2];
  }
  return settings;
}

/** Runs a command to its end; its output goes to stderr unless captured. Throws on failure. */
function run(command, args, cwd, capture = false) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', capture ? 'pipe' : 2, capture ? 'pipe' : 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    const detail = capture ? `: ${String(result.stderr).trim()}` : '';
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status}${detail}`);
  }
  return capture ? result.stdout.trim() : '';
}

const git = (...args) => run('git', args, ROOT, true);

/** The commit a ref names, or a clear error. */
function resolveCommit(ref) {
  const result = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`--base ${ref}: not a commit of this repository`);
  return result.stdout.trim();
}

const subject = (sha) => git('log', '-1', '--format=%s', sha);
const sameFile = (a, b) =>
  fs.existsSync(a) && fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));
const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});

/** The worktrees git knows of, by real path. */
function worktrees() {
  return git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}

/**
 * The base built in its worktree: made with `git worktree add --detach` unless a previous comparison
 * left it, its node_modules linked to head's or installed, its `npm run build` run unless a build of
 * this commit is already there. Resolves with the worktree's path.
 */
function prepareBase(sha) {
  fs.mkdirSync(CACHE, { recursive: true });
  const dir = path.join(fs.realpathSync(CACHE), sha);
  const markFile = `${dir}.json`;
  const known = worktrees().includes(dir);
  if (!fs.existsSync(dir)) {
    fs.rmSync(markFile, { force: true });
    log(`checking out ${sha.slice(0, 12)} in ${dir}`);
    // A worktree git still lists but whose directory is gone is added again over its old entry.
    run('git', ['worktree', 'add', ...(known ? ['--force'] : []), '--detach', dir, sha], ROOT, true);
  } else if (!known) {
    throw new Error(`${dir} exists but is not a worktree of this repository: move it away and run again`);
  } else if (run('git', ['rev-parse', 'HEAD'], dir, true) !== sha) {
    throw new Error(`${dir} is a worktree of another commit than ${sha}: --clean it or move it away`);
  }
  const mark = readJson(markFile);
  const modules = path.join(dir, 'node_modules');
  const linked = fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  const sameLock = sameFile(path.join(dir, 'package-lock.json'), path.join(ROOT, 'package-lock.json'));
  if (sameLock) {
    if (!fs.existsSync(modules) && !linked) {
      fs.symlinkSync(path.join(ROOT, 'node_modules'), modules, 'dir');
      mark.modules = 'linked';
    }
    log(`base node_modules: ${mark.modules === 'installed' ? 'its own' : "head's"} (same package-lock.json)`);
  } else if (mark.modules !== 'installed' || !fs.existsSync(modules) || linked) {
    // Head's lock changed since this worktree linked to its node_modules: the link no longer fits.
    if (linked) fs.unlinkSync(modules);
    log("base package-lock.json differs from head's: npm ci in the base worktree (about 90 s)...");
    const started = Date.now();
    run('npm', ['ci', '--no-audit', '--no-fund'], dir);
    log(`npm ci took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    mark.modules = 'installed';
    delete mark.built;
  } else {
    log('base node_modules: its own, installed by an earlier comparison (package-lock.json differs)');
  }
  if (mark.built && fs.existsSync(path.join(dir, 'dist'))) {
    log(`reusing the build of ${sha.slice(0, 12)} from ${mark.built}`);
  } else {
    // The base's own build script: later ones copy files tsc does not emit (the signing page's assets).
    log(`building ${sha.slice(0, 12)}: npm run build`);
    run('npm', ['run', 'build', '--silent'], dir);
    mark.built = new Date().toISOString();
  }
  fs.writeFileSync(markFile, `${JSON.stringify({ sha, ...mark }, null, 2)}\n`);
  if (!fs.existsSync(cliOf(dir))) throw new Error(`${cliOf(dir)} is missing: the base has no command line`);
  return dir;
}

/** `--clean`: the base's worktree and its mark go (the link to head's node_modules first, not through it). */
function removeBase(dir) {
  const modules = path.join(dir, 'node_modules');
  if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(modules);
  run('git', ['worktree', 'remove', '--force', dir], ROOT, true);
  fs.rmSync(`${dir}.json`, { force: true });
  log(`removed the worktree ${dir}`);
}

/** Resolves when `child` has exited (SIGTERM, then SIGKILL if it has not after 10 s). */
function stopped(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const baseSha = resolveCommit(options.base);
  const headSha = git('rev-parse', 'HEAD');
  const changed = git('status', '--porcelain', '--', 'src', 'bin', 'package.json', 'package-lock.json');
  const changedFiles = changed === '' ? 0 : changed.split('\n').length;
  if (!fs.existsSync(path.join(ROOT, 'dist'))) throw new Error('dist is missing: run `npm run build` first');
  const baseDir = prepareBase(baseSha);
  const sides = {
    base: { key: 'base', root: baseDir, sha: baseSha, subject: subject(baseSha) },
    head: { key: 'head', root: ROOT, sha: headSha, subject: subject(headSha) },
  };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-compare-'));
  const children = [];
  const schemas = [];
  try {
    for (const side of Object.values(sides)) {
      const sideDir = path.join(dir, side.key);
      fs.mkdirSync(sideDir);
      side.store = storeFor(options.store, sideDir, `compare_${side.key}_${process.pid}_${Date.now()}`);
      if (side.store.schema) {
        await pgAdmin(`create schema ${side.store.schema}`);
        schemas.push(side.store.schema);
      }
      side.env = { ...BENCH_ENV, DATABASE_URL: side.store.url };
      log(
        `seeding ${side.key} (${side.sha.slice(0, 12)}) with its own command line: ` +
          `${side.store.file ?? `PostgreSQL schema ${side.store.schema}`} at scale ${options.scale}`,
      );
      Object.assign(
        side,
        await seedDatabase({
          env: side.env,
          store: side.store,
          scale: options.scale,
          dir: sideDir,
          root: side.root,
        }),
      );
    }
    if (JSON.stringify(sides.base.world) !== JSON.stringify(sides.head.world)) {
      log(
        'WARNING: the two seeded databases differ (companies, facility, creator or days): answers will too',
      );
    }
    const serve = (side, extra = {}) =>
      startChild(
        [cliOf(side.root), 'serve'],
        { ...side.env, ...options.sideEnv[side.key], PORT: '0', HOST: '127.0.0.1', ...extra },
        side.root,
      );
    for (const side of Object.values(sides)) {
      side.service = await serve(side);
      children.push(side.service.child);
      side.scenarios = scenarioList(side.service.address, side.world, side.tokens).map((scenario) => ({
        ...scenario,
        pid: side.service.child.pid,
      }));
    }
    const chosen = choose(sides.head.scenarios, options.only);
    const pairs = chosen.map((index) => ({
      name: sides.head.scenarios[index].name,
      base: sides.base.scenarios[index],
      head: sides.head.scenarios[index],
    }));
    // The kept lists again from instances that keep no page, after all the others, as run.js has them.
    if (pairs.some((pair) => pair.head.kept)) {
      for (const side of Object.values(sides)) {
        side.uncached = await serve(side, { PAGE_CACHE_MB: '0' });
        children.push(side.uncached.child);
      }
      for (const pair of pairs.filter((p) => p.head.kept)) {
        const off = (key) =>
          pageCacheOff(
            pair[key],
            sides[key].service.address,
            sides[key].uncached.address,
            sides[key].uncached.child.pid,
          );
        pairs.push({
          name: `${pair.name}, page cache off`,
          uncached: true,
          base: off('base'),
          head: off('head'),
        });
      }
    }
    if (options['cold-only']) {
      pairs.splice(0, pairs.length, ...pairs.filter((pair) => pair.uncached));
      if (pairs.length === 0) throw new Error('--cold-only: none of the scenarios chosen is a kept list');
    }

    // Both sides must give the same answer; a row that cannot be measured says why.
    for (const [index, pair] of pairs.entries()) {
      const bodies = {};
      for (const key of ['base', 'head']) {
        try {
          bodies[key] = await fetchOnce(pair[key].url, pair[key].headers);
        } catch (error) {
          pair.error = `${key}: ${error.message.replace(sides[key].service.address, '')}`.slice(0, 200);
          log(`NOT MEASURED: ${pair.name}: ${pair.error}`);
        }
      }
      if (pair.error) continue;
      pair.bytes = bodies.head.length;
      const [base, head] = [normalized(bodies.base), normalized(bodies.head)];
      if (base !== head) {
        pair.differ = difference(base, head);
        log(`ANSWERS DIFFER: ${pair.name}: ${pair.differ}`);
      }
      pair.bodyFile = path.join(dir, `body-${index}.json`);
      fs.writeFileSync(pair.bodyFile, bodies.head);
    }
    const measured = pairs.filter((pair) => !pair.error);
    // One bare route per response size, each answering head's body of that scenario.
    const constant = await startChild(
      [path.join(__dirname, 'constant-server.js'), ...measured.map((pair) => pair.bodyFile)],
      {},
    );
    children.push(constant.child);
    const load = (target, duration) =>
      target.pid === undefined
        ? cannon({ ...loadOf(target, options.connections), duration })
        : cannonWithCpu({ ...loadOf(target, options.connections), duration }, target.pid);

    // The answers above came from the first instances; each measured scenario gets two new ones (one
    // a side, the page cache off where the row says so), so no row pays for the heap, the kept pages or
    // the collector's debt of the rows before it, and stopped after it.
    for (const side of Object.values(sides)) {
      for (const instance of [side.service, side.uncached].filter(Boolean)) instance.child.kill('SIGTERM');
    }
    const fresh = async (pair, key) => {
      const from = pair.uncached ? sides[key].uncached.address : sides[key].service.address;
      const instance = await serve(sides[key], pair.uncached ? { PAGE_CACHE_MB: '0' } : {});
      children.push(instance.child);
      return {
        instance,
        target: { ...pair[key], url: pair[key].url.replace(from, instance.address), pid: instance.child.pid },
      };
    };

    const loadBefore = os.loadavg()[0];
    for (const [index, pair] of measured.entries()) {
      const bare = { url: `${constant.address}/constant/${index}`, headers: {} };
      // One pair of new processes after another (which side starts first alternating): a process can
      // run the same build 20-30% faster or slower than the next one for its whole life, so with more
      // than one pair the row is the median of the pairs' ratios, and its spread is shown.
      const processes = [];
      for (let run = 0; run < options.processes; run++) {
        const label = options.processes === 1 ? '' : ` (processes ${run + 1}/${options.processes})`;
        // The side that starts first also warms up first and leads the first round, and the next pair
        // mirrors it all: a side warmed first and measured first fares differently for the process's
        // life from the one warmed second (one build against itself read 0.87-0.92 when base always
        // warmed first), so only the mirrored pairs together are neutral.
        const first = (index + run) % 2 === 0 ? ['base', 'head'] : ['head', 'base'];
        const started = {};
        for (const key of first) started[key] = await fresh(pair, key);
        const targets = { base: started.base.target, head: started.head.target };
        log(`warming up${label}: ${pair.name}`);
        for (const target of [bare, ...first.map((key) => targets[key])])
          await load(target, options['warm-up']);
        const rounds = [];
        for (let round = 0; round < options.rounds; round++) {
          const order = round % 2 === 0 ? first : [...first].reverse();
          log(
            `measuring (round ${round + 1}/${options.rounds}${label}, bare route, ${order.join(', ')}): ${pair.name}`,
          );
          const results = { floor: await load(bare, options.duration) };
          for (const key of order) results[key] = await load(targets[key], options.duration);
          rounds.push(results);
        }
        for (const { instance } of Object.values(started)) await stopped(instance.child);
        processes.push(rounds);
      }
      const all = processes.flat();
      const ratio = (rounds, key, over) => median(rounds.map((r) => rate(r[key]) / rate(r[over])));
      const perPair = processes.map((rounds) => {
        const [base, head] = [
          summarizeSide(rounds.map((r) => r.base)),
          summarizeSide(rounds.map((r) => r.head)),
        ];
        return {
          rate: ratio(rounds, 'head', 'base'),
          cpu: base.cpu === null || head.cpu === null ? null : head.cpu / base.cpu,
        };
      });
      pair.summary = {
        base: summarizeSide(all.map((r) => r.base)),
        head: summarizeSide(all.map((r) => r.head)),
        floorRate: mean(all.map((r) => rate(r.floor))),
        headOverBase: median(perPair.map((p) => p.rate)),
        pairs: perPair,
        baseShare: ratio(all, 'base', 'floor'),
        headShare: ratio(all, 'head', 'floor'),
      };
    }
    const loadAfter = os.loadavg()[0];

    const percent = (share) => `${fmt(100 * share, share < 0.1 ? 1 : 0)}%`;
    const table = pairs.map((pair) => {
      if (pair.error)
        return `| ${cell(pair.name)} | | | | | | | | | | | | | | **not measured: ${cell(pair.error)}** |`;
      const { base, head, floorRate, headOverBase, pairs: perPair, baseShare, headShare } = pair.summary;
      const spread = (values) =>
        values.length === 1 ? '' : ` (${fmt(Math.min(...values), 2)}-${fmt(Math.max(...values), 2)})`;
      const cpuRatios = perPair.map((p) => p.cpu).filter((value) => value !== null);
      const cells = [
        pair.name,
        fmt(pair.bytes),
        fmt(base.rate, 1),
        fmt(head.rate, 1),
        `${fmt(headOverBase, 2)}${spread(perPair.map((p) => p.rate))}`,
        base.cpu === null ? '' : fmt(base.cpu, 1),
        head.cpu === null ? '' : fmt(head.cpu, 1),
        cpuRatios.length !== perPair.length
          ? ''
          : perPair.length === 1
            ? fmt(head.cpu / base.cpu, 2)
            : `${fmt(median(cpuRatios), 2)}${spread(cpuRatios)}`,
        fmt(floorRate, 1),
        percent(baseShare),
        percent(headShare),
        fmt(base.p99, 1),
        fmt(head.p99, 1),
        `${base.failed} / ${head.failed}`,
        pair.differ ? '**answers differ**' : 'identical',
      ];
      return `| ${cells.map(cell).join(' | ')} |`;
    });
    const differing = pairs.filter((pair) => pair.differ);
    const unmeasured = pairs.filter((pair) => pair.error);
    const cpus = os.cpus();
    const { world } = sides.head;
    const report = [
      '# Comparison of two commits',
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; Node ${process.version}; ` +
        `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}; 1-minute load average ` +
        `${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the measurements.`,
      '',
      `- base: \`${baseSha}\` ${sides.base.subject} (built in ${baseDir})`,
      ...['base', 'head']
        .filter((key) => Object.keys(options.sideEnv[key]).length > 0)
        .map((key) => `- ${key}'s service also runs with ${options[`${key}-env`]}`),
      `- head: \`${headSha}\` ${sides.head.subject} (the working tree` +
        `${changedFiles === 0 ? '' : `, with uncommitted changes to ${changedFiles} file${changedFiles === 1 ? '' : 's'} in src, bin or the package files`})`,
      '',
      `Each side seeded its own ${options.store === 'postgres' ? 'PostgreSQL schema (127.0.0.1:5432)' : 'SQLite database (WAL)'} with its own command line: ` +
        `\`facility-ops seed --scale ${options.scale}\` plus a 10,000-row company ` +
        `(${fmt(world.total)} rate changes in all). Each side's \`facility-ops serve\` with ` +
        'NODE_ENV=production, LOG_LEVEL=warn, rate limit off, outbox worker off; bearer authentication. ' +
        `autocannon on the same machine, ${options.connections} connections.`,
      '',
      'Each scenario: ' +
        (options.processes === 1
          ? 'a new `facility-ops serve` of each side (started for that scenario, stopped after it)'
          : `${options.processes} pairs of new \`facility-ops serve\` processes, one of each side, one pair after the other (each started for it and stopped after it); in each pair`) +
        `, a ${options['warm-up']} s warm-up of the bare route (\`bench/constant-server.js\`, a constant body of the ` +
        `same size) and the two sides, then ${options.rounds} round${options.rounds === 1 ? '' : 's'} of ` +
        `${options.duration} s of each: the bare route, then the two sides. The side started first warms up ` +
        'first and leads the odd rounds, the other leads the even ones, and each pair of processes mirrors ' +
        'the order of the pair before it (the first side alternates from row to row as well). req/s are means over the rounds; head/base is the median of the ' +
        'per-round ratios, and so is each side\'s "of bare route" (its req/s over the bare route\'s in the ' +
        'same round); p99 comes from the round whose req/s is the median (the lower middle one if the ' +
        'rounds are even); failed is summed over the rounds. "answers" compares the two sides\' bodies ' +
        "with their request ids blanked. CPU µs/req is the user and system CPU time each side's process " +
        'spent per request answered (from /proc, the mean over the rounds), and CPU head/base their ratio: ' +
        'it leaves out the time a side waited for a core, so it moves less from run to run than req/s ' +
        '(below 1, head costs less).' +
        (options.processes === 1
          ? ''
          : ` With ${options.processes} pairs of processes, head/base and CPU head/base are the medians of ` +
            "the pairs' own ratios, with the lowest and highest pair in brackets; req/s and CPU µs/req " +
            'are over every round of every pair.'),
      '',
      ...(differing.length === 0
        ? []
        : [
            `> **ANSWERS DIFFER** on ${differing.length} scenario${differing.length === 1 ? '' : 's'}: ` +
              'the two commits do not give the same bodies, so their rates compare different work.',
            '',
          ]),
      ...(unmeasured.length === 0
        ? []
        : [`> **NOT MEASURED**: ${unmeasured.length} scenario(s), one side did not answer 200.`, '']),
      '| scenario | response bytes | base req/s | head req/s | head/base | base CPU µs/req | head CPU µs/req | CPU head/base | bare route req/s | base of bare route | head of bare route | base p99 ms | head p99 ms | failed base / head | answers |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...table,
      '',
      ...differing.flatMap((pair) => [`- ${pair.name}: ${pair.differ}`]),
      ...(differing.length === 0 ? [] : ['']),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'compare.md'), `${report}\n`);
    log('written to bench/results/compare.md');
    if (differing.length > 0) log(`ANSWERS DIFFER on ${differing.length} scenario(s): see the table`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    if (!options.keep) {
      fs.rmSync(dir, { recursive: true, force: true });
      for (const schema of schemas) await pgAdmin(`drop schema if exists ${schema} cascade`);
    } else log(`kept ${dir}`);
    if (options.clean) removeBase(baseDir);
    else log(`the base's build stays in ${baseDir} for the next comparison (--clean removes it)`);
  }
}

module.exports = { prepareBase, resolveCommit };

if (require.main === module) {
  main().catch((error) => {
    log(error.stack ?? String(error));
    process.exit(1);
  });
}
