import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli/cli';
import { tempDir, testIo } from './cli-support';

const run = promisify(execFile);

/**
 * A new user's first hour: `start` writes a page of curl commands with real demo ids, and each of
 * them, pasted into a shell as it stands, answers 200 (real curl, real bash, a real server).
 */
describe('the first-requests file of `facility-ops start`', () => {
  let dir: string;
  let remove: () => void;
  beforeAll(() => ({ dir, remove } = tempDir()));
  afterAll(() => remove());

  it('holds a working curl command for every /v1 operation and a GraphQL query', async () => {
    const t = testIo({ DATABASE_URL: `sqlite:${path.join(dir, 'ops.db')}`, PORT: '0' });
    const running = runCli(['start'], t.io);
    try {
      await t.line(/^Stop it with Ctrl-C\.$/);
      const out = t.out.join('\n');
      const token = /^ {2}bearer token {5}(\S+)$/m.exec(out)![1];
      const url = /^facility-ops is running at (\S+)$/m.exec(out)![1];
      const file = path.join(dir, 'first-requests.md');
      expect(out).toContain(`with real demo ids: ${file}`); // outside the working directory: in full
      expect(out).toContain(`  (they read $BASE and $TOKEN: export BASE=${url} TOKEN=${token})`);

      const page = fs.readFileSync(file, 'utf8');
      expect(page).not.toContain(token); // no secret in the file
      const commands = page.split('\n').filter((line) => /^(R=\$\()?curl /.test(line));
      const env: NodeJS.ProcessEnv = { ...process.env, BASE: url, TOKEN: token };
      delete env.S;
      delete env.D;
      /** Runs one line as a user pasting it would, and answers its HTTP status and body. */
      const paste = async (line: string) => {
        const { stdout } = await run('bash', ['-c', `${line} -w '\\n%{http_code}'`], { cwd: dir, env });
        const at = stdout.lastIndexOf('\n');
        return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
      };

      const failures: string[] = [];
      for (const line of commands) {
        if (line.includes('$S')) continue; // needs the review's ids, below
        const { status, body } = await paste(line);
        if (status !== 200) failures.push(`${status} from ${line}: ${body.slice(0, 300)}`);
        if (line.includes('/move_ins/review_cost')) {
          const moveIn = (JSON.parse(body) as { move_in: { session_id: string } }).move_in;
          expect(moveIn.session_id).toEqual(expect.any(String));
        }
        if (line.includes('/graphql')) {
          const answer = JSON.parse(body) as { data?: { facility?: { name?: string } }; errors?: unknown };
          expect(answer.errors).toBeUndefined();
          expect(typeof answer.data?.facility?.name).toBe('string');
        }
      }
      // The session document's line sets its own $S and $D: none is set here.
      const session = commands.find((line) => line.includes('$S'))!;
      expect(env.S).toBeUndefined();
      expect(env.D).toBeUndefined();
      const review = await paste(session);
      if (review.status !== 200) failures.push(`${review.status} from ${session}`);
      expect(failures).toEqual([]);
      for (const pdf of ['lease.pdf', 'review.pdf']) {
        expect(fs.readFileSync(path.join(dir, pdf)).subarray(0, 5).toString()).toBe('%PDF-');
      }

      // Every operation of the OpenAPI document has its line.
      const doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as { paths: Record<string, object> };
      const templates = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/'));
      const missing = templates.filter((template) => {
        const pattern = new RegExp(`\\$BASE${template.replace(/\{[^}]+\}/g, '[^/?"]+')}[?"]`);
        return !commands.some((line) => pattern.test(line.replace('$D', 'd').replace('$S', 's')));
      });
      expect(missing).toEqual([]);
    } finally {
      t.stop('SIGINT');
      expect(await running).toBe(0);
    }
  }, 120_000);
});
