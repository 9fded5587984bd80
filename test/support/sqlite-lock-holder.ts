import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { withDeadline } from '../../src/kernel/deadline';

/** Generous bound on the holder's answers: a busy machine is slow, never this slow. */
const DEADLINE_MS = 30_000;

/**
 * Another process holding a SQLite file's write lock, as an `import` beside the service does
 * while its transaction is open: `lock` takes it (`begin immediate`), `release` commits.
 */
export interface SqliteLockHolder {
  lock(): Promise<void>;
  release(): Promise<void>;
  end(): Promise<void>;
}

const SCRIPT = `
const Database = require(process.argv[1]);
const handle = new Database(process.argv[2]);
handle.pragma('busy_timeout = 5000');
let rest = '';
process.stdin.on('data', (chunk) => {
  rest += chunk;
  let at;
  while ((at = rest.indexOf('\\n')) >= 0) {
    const command = rest.slice(0, at);
    rest = rest.slice(at + 1);
    if (command === 'lock') { handle.exec('begin immediate'); process.stdout.write('locked\\n'); }
    if (command === 'release') { handle.exec('commit'); process.stdout.write('released\\n'); }
  }
});
process.stdin.on('end', () => { handle.close(); process.exit(0); });
`;

export function sqliteLockHolder(file: string): SqliteLockHolder {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['-e', SCRIPT, require.resolve('better-sqlite3'), file],
    { stdio: 'pipe' },
  );
  let seen = '';
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    for (const waiter of [...waiters]) {
      if (!seen.includes(`${waiter.line}\n`)) continue;
      seen = seen.replace(`${waiter.line}\n`, '');
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  let failure = '';
  child.stderr.on('data', (chunk: Buffer) => (failure += chunk.toString()));
  const ask = (command: string, answer: string) => {
    const answered = new Promise<void>((resolve) => waiters.push({ line: answer, resolve }));
    child.stdin.write(`${command}\n`);
    return withDeadline(answered, DEADLINE_MS, `the lock holder did not answer ${command}: ${failure}`);
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    lock: () => ask('lock', 'locked'),
    release: () => ask('release', 'released'),
    end: async () => {
      child.stdin.end();
      await withDeadline(exited, DEADLINE_MS, 'the lock holder did not exit').catch(() =>
        child.kill('SIGKILL'),
      );
    },
  };
}
