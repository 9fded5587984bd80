import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runCli } from '../../src/cli/cli';
import type { CliIo } from '../../src/cli/io';
import { ConfigError, loadConfig } from '../../src/config';
import { withDeadline } from '../../src/kernel/deadline';
import { POSTGRES_URL } from '../support/dialects';

export interface TestIo {
  io: CliIo;
  out: string[];
  err: string[];
  /** Plays the part of SIGTERM or SIGINT. */
  stop(signal?: string): void;
  /** Resolves with the first output line that matches. */
  line(pattern: RegExp): Promise<string>;
}

/** A command line's world: captured output, a quiet log, a fixed "now", and a stop switch. */
export function testIo(env: Record<string, string> = {}): TestIo {
  const out: string[] = [];
  const err: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const io: CliIo = {
    out: (line) => {
      out.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    },
    err: (line) => err.push(line),
    env: { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    stopRequested: () => stopped,
    now: () => new Date('2026-11-21T15:00:00Z'),
  };
  return {
    io,
    out,
    err,
    stop: (signal = 'SIGTERM') => stop(signal),
    line: (pattern) => {
      const seen = out.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

/** A temporary directory removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-cli-'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One command run to its end in `env` (and `stdin` when given): its exit code and output. */
export async function runCommand(
  argv: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  const t = testIo(env);
  if (stdin !== undefined) t.io.readStdin = async () => stdin;
  const code = await runCli(argv, t.io);
  return { code, out: t.out.join('\n'), err: t.err.join('\n') };
}

/** The problems loadConfig lists for `env` (under NODE_ENV=test unless set); none when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

const ROOT = path.resolve(__dirname, '../..');

/** The `sh` blocks after `marker` in a doc of docs/, each as its text, for running them as they stand. */
export function shBlocksAfter(doc: string, marker: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'docs', doc), 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`docs/${doc} has no ${marker}`);
  return [...text.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Resolves once `test` holds, checking every 100 ms; rejects after `ms` with what was seen. */
export async function untilSeen(
  test: () => boolean | Promise<boolean>,
  ms: number,
  seen: () => string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting; seen so far:\n${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether any process of the group `pid` leads is still alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A real `start` on PostgreSQL in a schema of its own (startInSchema). */
export interface StartedInSchema {
  /** A session of the test's own on the same database. */
  readonly admin: Client;
  readonly t: TestIo;
  /** `start` itself: resolves with its exit code. */
  readonly running: Promise<number>;
  /** What it printed before serving (its credentials and curl commands). */
  readonly out: string;
  /** The demo client's bearer token. */
  readonly token: string;
  /** Stops it (SIGTERM), goes back to the working directory, drops the schema; resolves with its exit code. */
  end(): Promise<number>;
}

/**
 * Runs `start` (migrations, the demo data, then serving on a free port) with `env`, whose
 * DATABASE_URL must name `schema` in its search_path; the schema is made first and dropped by
 * `end`, which also ends anything `admin` left open. `start` on PostgreSQL writes
 * first-requests.md in the working directory, so it runs in a temporary one.
 */
export async function startInSchema(
  schema: string,
  env: Record<string, string>,
  log: (line: string) => void = () => undefined,
): Promise<StartedInSchema> {
  const admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const temp = tempDir();
  const cwd = process.cwd();
  process.chdir(temp.dir);
  const t = testIo({ PORT: '0', ...env });
  t.io.logStream = { write: log };
  const running = runCli(['start'], t.io);
  const end = async () => {
    // A lock the test's session holds would keep requests in flight waiting.
    await admin.query('rollback').catch(() => undefined);
    t.stop('SIGTERM');
    const code = await running;
    process.chdir(cwd);
    temp.remove();
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
    return code;
  };
  try {
    // Generous: migrations and the demo data on a busy machine take seconds, never this long.
    await withDeadline(
      Promise.race([
        t.line(/^Stop it with Ctrl-C\.$/),
        running.then((code) => {
          throw new Error(`start ended with ${code}: ${t.err.join('\n')}`);
        }),
      ]),
      120_000,
      'start did not serve within 120 s',
    );
  } catch (error) {
    await end();
    throw error;
  }
  const out = t.out.join('\n');
  const token = /^ {2}bearer token {5}(\S+)$/m.exec(out)![1];
  return { admin, t, running, out, token, end };
}
