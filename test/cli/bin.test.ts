import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './cli-support';

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
});
