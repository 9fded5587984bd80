import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { groupAlive, shBlocksAfter, tempDir, untilSeen } from './cli-support';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const MARKER = '<!-- gateway-recipe:';

/** The lines of the first two `sh` blocks after the recipe's marker in docs/gateway.md. */
function recipeBlocks(): { recipe: string[]; tries: string[] } {
  const blocks = shBlocksAfter('gateway.md', MARKER).map((block) => block.trimEnd().split('\n'));
  return { recipe: blocks[0], tries: blocks[1].filter((line) => line.startsWith('curl ')) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const until = untilSeen;

/**
 * docs/gateway.md's six-line recipe, pasted into bash as it stands from the checkout: an upstream
 * of the same checkout with the demo data, and a gateway in front of it that answers the doc's
 * requests. The ports come from the environment, as the recipe reads them (UPSTREAM_PORT a free
 * port, the gateway's PORT 0); only where things go changes: `data/` is a scratch directory.
 */
describe("docs/gateway.md's recipe", () => {
  let scratch: ReturnType<typeof tempDir>;
  beforeAll(() => (scratch = tempDir()));
  afterAll(() => scratch.remove());

  it('starts an upstream and a gateway in front of it that answer the doc’s requests', async () => {
    const { recipe, tries } = recipeBlocks();
    expect(recipe).toHaveLength(6);
    // No port is written in the recipe's commands: they read PORT and UPSTREAM_PORT.
    expect(recipe.slice(1).join('\n')).not.toMatch(/300[01]/);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    const port = String(await freePort());
    const script = recipe.map((line) => line.replace(/(\.\/)?data\//g, `${scratch.dir}/`));

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) {
      if (/^(UPSTREAM_|DATABASE_URL$|NODE_ENV$|LOG_LEVEL$|PORT$|C$)/.test(name)) delete env[name];
    }
    env.PORT = '0';
    env.UPSTREAM_PORT = port;
    const shell = spawn('bash', ['-c', script.join('\n')], { cwd: ROOT, env, detached: true });
    let output = '';
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const upstreamLog = path.join(scratch.dir, 'upstream.log');
    const upstreamLogText = () => (fs.existsSync(upstreamLog) ? fs.readFileSync(upstreamLog, 'utf8') : '');
    try {
      await until(
        () => /^Stop it with Ctrl-C\.$/m.test(output) || shell.exitCode !== null,
        240_000,
        () => output,
      );
      expect(output).toMatch(/^Stop it with Ctrl-C\.$/m);
      await until(() => /listening on/.test(upstreamLogText()), 60_000, upstreamLogText);

      expect(output).toContain('gateway mode: /v1 answers from http://127.0.0.1:');
      // A gateway sends nothing itself: no worker, and no warning that it has no way to send.
      expect(output).not.toContain('no SMTP_URL or SMS_WEBHOOK_URL');
      expect(output).not.toContain('outbox worker started');
      // The upstream's credentials went into the shell, not onto the screen.
      expect(output).not.toMatch(/UPSTREAM_CONSUMER_SECRET/);

      const base = /^facility-ops is running at (\S+)$/m.exec(output)![1];
      const tokens = [...output.matchAll(/^ {2}bearer token {5}(\S+)$/gm)].map((m) => m[1]);
      expect(tokens).toHaveLength(1); // "My client"'s
      // A second shell: the settings file gives it the gateway's database, and a command that writes
      // only that database works without the upstream credentials.
      const local = await run(
        'bash',
        [
          '-c',
          `. ./data/gateway.env && unset UPSTREAM_CONSUMER_KEY UPSTREAM_CONSUMER_SECRET && npx facility-ops clients create --company 8a5ad29a-3a0c-4a09-a1c3-6a2696e684be --name Second --json && npx facility-ops clients list`.replace(
            /(\.\/)?data\//g,
            `${scratch.dir}/`,
          ),
        ],
        { cwd: ROOT, env: { ...env, PORT: '' } },
      );
      expect(local.stdout).toMatch(/^[0-9a-f-]{36} +My client +Harbor Self Storage +created /m);
      expect(local.stdout).toMatch(/^[0-9a-f-]{36} +Second +Harbor Self Storage +created /m);
      expect(local.stdout).not.toContain(' Gateway ');
      const curlEnv = { ...process.env, BASE: base, TOKEN: tokens[0] };
      for (const line of tries) {
        const { stdout } = await run('bash', ['-c', `${line} -w '\\n%{http_code}'`], { env: curlEnv });
        const at = stdout.lastIndexOf('\n');
        const body = JSON.parse(stdout.slice(0, at)) as {
          flippers?: string[];
          data?: { facility?: { flippers?: string[] } };
          errors?: unknown;
        };
        expect({ line, status: Number(stdout.slice(at + 1)) }).toEqual({ line, status: 200 });
        expect(body.errors).toBeUndefined();
        expect(body.flippers ?? body.data?.facility?.flippers).toContain('esign_documents');
      }
    } finally {
      if (groupAlive(shell.pid!)) process.kill(-shell.pid!, 'SIGTERM');
      await until(
        () => !groupAlive(shell.pid!),
        60_000,
        () => output,
      );
    }
  }, 360_000);
});
