import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './cli-support';
import { MIGRATION_NAMES } from '../../src/store/migrator';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'facility-ops.js');

/**
 * The real executable: bin/facility-ops.js over sources compiled once into a scratch directory
 * (not the project's dist/, which other builds may be rewriting), run as a child process.
 */
describe('bin/facility-ops.js', () => {
  let scratch: ReturnType<typeof tempDir>;
  let env: NodeJS.ProcessEnv;
  const bin = () => path.join(scratch.dir, 'bin', 'facility-ops.js');

  beforeAll(() => {
    scratch = tempDir();
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        path.join(scratch.dir, 'dist'),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    // Type errors elsewhere still emit JavaScript; only a missing entry point stops these tests.
    if (!fs.existsSync(path.join(scratch.dir, 'dist', 'main.js')))
      throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
    // The rest of `npm run build`: the files tsc does not emit.
    execFileSync(process.execPath, [
      path.join(ROOT, 'scripts', 'copy-assets.js'),
      path.join(scratch.dir, 'dist'),
    ]);
    fs.mkdirSync(path.join(scratch.dir, 'bin'));
    fs.copyFileSync(BIN, bin());
    env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      NODE_PATH: path.join(ROOT, 'node_modules'),
      DATABASE_URL: `sqlite:${path.join(scratch.dir, 'ops.db')}`,
      PORT: '0',
    };
  }, 300_000);
  afterAll(() => scratch?.remove());

  it('says how to build when dist is missing', () => {
    const bare = tempDir();
    try {
      fs.mkdirSync(path.join(bare.dir, 'bin'));
      fs.copyFileSync(BIN, path.join(bare.dir, 'bin', 'facility-ops.js'));
      const result = spawnSync(process.execPath, [path.join(bare.dir, 'bin', 'facility-ops.js'), 'start'], {
        encoding: 'utf8',
        cwd: bare.dir,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        'facility-ops: dist/main.js is missing: the TypeScript sources are not built.',
      );
      expect(result.stderr).toContain('Run `npm run build` once');
    } finally {
      bare.remove();
    }
  });

  it('exits 2 on bad usage', () => {
    const result = spawnSync(process.execPath, [bin(), 'frobnicate'], { encoding: 'utf8', env });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('facility-ops: unknown command "frobnicate"');
  });

  it('migrates, serves, and on SIGTERM stops and exits 0', async () => {
    const migrate = spawnSync(process.execPath, [bin(), 'migrate'], { encoding: 'utf8', env });
    expect(migrate.status).toBe(0);
    // The build lists its migrations from its own folder (dist/store/migrations): all of them.
    const migrated = migrate.stdout.split('\n').filter((line) => line.startsWith('migrated '));
    expect(migrated.map((line) => line.slice(line.lastIndexOf(' ') + 1))).toEqual(MIGRATION_NAMES);

    const child = spawn(process.execPath, [bin(), 'serve'], { env });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /facility-ops listening on (\S+)/.exec(stdout);
        if (match) resolve(match[1]);
      });
      child.on('exit', () => reject(new Error(`exited before listening:\n${stdout}`)));
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('SIGTERM: finishing requests in flight, then stopping\nstopped\n');
  }, 60_000);

  /** `serve` with `extra` in its environment, once listening: its pid's command line and environment. */
  const serveAndRead = async (extra: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, [bin(), 'serve'], { env: { ...env, ...extra } });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('facility-ops listening on')) resolve();
      });
      child.on('exit', () => reject(new Error(`exited before listening:\n${stdout}`)));
    });
    const read = (file: string) => fs.readFileSync(`/proc/${child.pid}/${file}`, 'utf8').split('\0');
    const seen = { cmdline: read('cmdline'), environ: read('environ') };
    child.kill('SIGTERM');
    return { ...seen, code: await exited };
  };
  const onLinux = process.platform === 'linux' ? it : it.skip;

  onLinux(
    'serves as the same process started again with a 16 MB semi-space and glibc malloc settings',
    async () => {
      // The pid spawn gave is the one listening: process.execve replaced the program, not a child.
      const { cmdline, environ, code } = await serveAndRead({});
      expect(cmdline.slice(1, 4)).toEqual(['--max-semi-space-size=16', bin(), 'serve']);
      expect(environ).toContain('FACILITY_OPS_RELAUNCHED=1');
      // glibc's loader cuts the variable at its first ':' as it reads it; the rest took effect too.
      expect(environ.some((entry) => entry.startsWith('GLIBC_TUNABLES=glibc.malloc.mmap_threshold='))).toBe(
        true,
      );
      expect(code).toBe(0);
    },
    60_000,
  );

  onLinux(
    'serves as started with FACILITY_OPS_PROCESS_TUNING=off, and refuses a value other than on or off',
    async () => {
      const { cmdline, environ, code } = await serveAndRead({ FACILITY_OPS_PROCESS_TUNING: 'off' });
      expect(cmdline.slice(1, 3)).toEqual([bin(), 'serve']);
      expect(environ.some((entry) => entry.startsWith('FACILITY_OPS_RELAUNCHED='))).toBe(false);
      expect(code).toBe(0);

      const bad = spawnSync(process.execPath, [bin(), 'serve'], {
        encoding: 'utf8',
        env: { ...env, FACILITY_OPS_PROCESS_TUNING: 'yes' },
      });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toBe('facility-ops: FACILITY_OPS_PROCESS_TUNING must be on or off, not "yes"\n');
    },
    60_000,
  );

  it('stops and exits 0 on SIGTERM when whoever read its output has gone (a closed pipe)', async () => {
    const child = spawn(process.execPath, [bin(), 'serve'], { env: { ...env, LOG_LEVEL: 'info' } });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('facility-ops listening on')) resolve();
      });
      child.on('exit', () => reject(new Error(`exited before listening:\n${stdout}${stderr}`)));
    });
    child.stdout.destroy();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toContain('EPIPE');
  }, 60_000);

  it('keeps the heap through a quiet spell: V8 memory reducer never cuts it back', async () => {
    // A process whose old generation grew by about 40 MB (objects kept through scavenges until a
    // mark-compact collects them), then went quiet, ticking every 250 ms: after that mark-compact,
    // V8 schedules its memory reducer, whose first look here comes 50 ms later (told so rather than
    // after its default 8-30 s), and which then collects the heap "(reduce)" once it judges the
    // process idle (V8 11 did within about 24 s; V8 12 to 14, Node 22 to 26, keep waiting while the
    // process counts as in the foreground). Either way the reducer has started, and said so under
    // --trace-memory-reducer. The tuned one first loads ops/keep-heap, the first import of
    // dist/main.js: its reducer never starts, so never cuts the heap. Both start at once.
    const program = `
      if (process.argv[1] === 'tuned') require(${JSON.stringify(path.join(scratch.dir, 'dist', 'ops', 'keep-heap.js'))});
      let keep = [];
      for (let round = 0; round < 60; round++) {
        const chunk = [];
        for (let i = 0; i < 20000; i++) chunk.push({ a: i, b: 'x' + i });
        keep.push(chunk);
      }
      keep = null;
      setInterval(() => process.stdout.write('tick\\n'), 250);`;
    const start = (kind: string) => {
      const child = spawn(
        process.execPath,
        [
          '--trace-gc',
          '--trace-memory-reducer',
          '--gc-memory-reducer-start-delay-ms=50',
          '-e',
          program,
          kind,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const seen = { out: '' };
      child.stdout.on('data', (chunk: Buffer) => (seen.out += chunk.toString()));
      return { child, seen };
    };
    const count = (out: string, text: string) => out.split('\n').filter((line) => line.includes(text)).length;
    const until = async (holds: () => boolean, what: string) => {
      const deadline = Date.now() + 120_000;
      while (!holds()) {
        if (Date.now() > deadline) throw new Error(`no ${what} within 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const plain = start('plain');
    const tuned = start('tuned');
    try {
      await until(() => count(plain.seen.out, 'Memory reducer:') >= 1, "the plain process's memory reducer");
      // The tuned one, past its own mark-compact, quiet as long, and 20 ticks (5 s) more.
      await until(() => count(tuned.seen.out, 'Mark-Compact') >= 1, "the tuned process's mark-compact");
      const ticks = Math.max(count(plain.seen.out, 'tick'), count(tuned.seen.out, 'tick')) + 20;
      await until(() => count(tuned.seen.out, 'tick') >= ticks, `${ticks} ticks of the tuned process`);
      expect(count(tuned.seen.out, 'Memory reducer:')).toBe(0);
      expect(count(tuned.seen.out, '(reduce)')).toBe(0);
      expect(tuned.seen.out).toContain('Scavenge');
    } finally {
      plain.child.kill();
      tuned.child.kill();
    }
  }, 300_000);
});
