import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli/cli';
import { openStore } from '../../src/store/database';
import { demoDirectory } from '../../src/store/seed/demo-data';
import { demoIds } from '../../src/store/seed/demo-ids';
import { groupAlive, runCommand, shBlocksAfter, tempDir, testIo, untilSeen } from './cli-support';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** The `sh` blocks after `marker` in a doc, each as its text. */
function blocksAfter(doc: string, marker: string): string[] {
  const blocks = shBlocksAfter(doc, marker);
  expect(blocks.length).toBeGreaterThan(0);
  return blocks;
}

const until = untilSeen;

/**
 * The first steps of docs/subscriptions.md and docs/rest.md, pasted into bash as they stand from
 * the checkout, against a service started on the demo data with the variables the docs name.
 */
describe('the first steps the docs give, run as they stand', () => {
  let scratch: ReturnType<typeof tempDir>;
  let env: NodeJS.ProcessEnv;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    // The docs run `npx facility-ops`, which runs the build.
    await run('npm', ['run', 'build', '--silent'], { cwd: ROOT });
    scratch = tempDir();
    const databaseUrl = `sqlite:${path.join(scratch.dir, 'ops.db')}`;
    expect((await runCommand(['seed'], { DATABASE_URL: databaseUrl })).code).toBe(0);
    const [company] = demoDirectory();
    const store = openStore(databaseUrl);
    const ids = (await demoIds(store, company))!;
    await store.close();
    const made = await runCommand(
      ['clients', 'create', '--company', company.id, '--name', 'Docs', '--json'],
      {
        DATABASE_URL: databaseUrl,
      },
    );
    const token = (JSON.parse(made.out) as { bearer_token: string }).bearer_token;

    const t = testIo({ DATABASE_URL: databaseUrl, PORT: '0', LIVE_POLL_MS: '50' });
    t.io.now = () => new Date();
    const running = runCli(['serve'], t.io);
    const base = (await t.line(/^facility-ops listening on /)).split(' ').pop()!;
    stop = async () => {
      t.stop();
      expect(await running).toBe(0);
    };
    env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BASE: base,
      TOKEN: token,
      C: company.id,
      F: ids.facilityId,
      L: ids.ledgerId,
    };
    for (const name of ['CONSUMER_KEY', 'CONSUMER_SECRET', 'NODE_ENV', 'LOG_LEVEL']) delete env[name];
  }, 240_000);
  afterAll(async () => {
    await stop?.();
    scratch?.remove();
  });

  it('docs/rest.md: a first signed OAuth 1.0 request', async () => {
    const [block] = blocksAfter('rest.md', '<!-- oauth-first-request:');
    expect(block).toContain('facility-ops sign');
    const { stdout } = await run('bash', ['-c', block], { cwd: ROOT, env });
    // Two answers, one after the other: both 200 envelopes.
    const statuses = [...stdout.matchAll(/"status_code":(\d+)/g)].map((m) => Number(m[1]));
    expect({ statuses, stdout }).toEqual({ statuses: [200, 200], stdout });
    expect(stdout).toContain('"flippers":[');
  }, 120_000);

  it('docs/subscriptions.md: a graphql-ws and an SSE subscription get the note the REST write makes', async () => {
    const [node, sse, write] = blocksAfter('subscriptions.md', '<!-- first-subscription:');
    expect(node).toContain("from 'graphql-ws'");
    expect(sse).toMatch(/^curl -N /);
    const started: ChildProcess[] = [];
    const outputs = [node, sse].map((block) => {
      const shell = spawn('bash', ['-c', block], { cwd: ROOT, env, detached: true });
      started.push(shell);
      const seen = { text: '' };
      shell.stdout.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
      shell.stderr.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
      return seen;
    });
    const both = () => outputs.map((o) => o.text).join('\n---\n');
    try {
      // The subscriptions are up at some point after the processes start: write until both saw a note.
      await until(
        async () => {
          const { stdout } = await run('bash', ['-c', write], { cwd: ROOT, env });
          expect(stdout).toContain('"status_code":200');
          const deadline = Date.now() + 2_000;
          while (Date.now() < deadline) {
            if (outputs.every((o) => o.text.includes('NOTE_CREATED'))) return true;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return false;
        },
        90_000,
        both,
      );
      expect(outputs[0].text).toMatch(
        /^\{"data":\{"facilityActivity":\{"cursor":"\d+","type":"NOTE_CREATED"/m,
      );
      expect(outputs[1].text).toMatch(/^event: next$/m);
      expect(outputs[1].text).toMatch(
        /^data: \{"data":\{"facilityActivity":\{"cursor":"\d+","type":"NOTE_CREATED"/m,
      );
    } finally {
      for (const shell of started) if (groupAlive(shell.pid!)) process.kill(-shell.pid!, 'SIGTERM');
      await until(() => started.every((shell) => !groupAlive(shell.pid!)), 30_000, both);
    }
  }, 180_000);
});
