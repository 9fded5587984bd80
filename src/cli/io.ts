import type { DestinationStream } from 'pino';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  /** Writes one line to standard output. */
  out(line: string): void;
  /** Writes one line to standard error. */
  err(line: string): void;
  env: NodeJS.ProcessEnv;
  /** Resolves with the signal's name when the process is asked to stop (SIGTERM, SIGINT). */
  stopRequested(): Promise<string>;
  /** Where the service's JSON log lines go; the process's stdout when absent. */
  logStream?: DestinationStream;
  /** All of standard input, as text (`secrets encrypt` reads a secret from it). */
  readStdin?(): Promise<string>;
  /** "Now" for commands that date things (seed's reference date); the system clock when absent. */
  now?: () => Date;
}

/**
 * A reader that went away (a supervisor or pipe closed before the service stopped) must not stop
 * the service with an unhandled EPIPE: what it would have read is dropped.
 */
function dropLinesOnceReaderGone(stream: NodeJS.WriteStream): void {
  if (stream.listeners('error').includes(ignoreClosedPipe)) return;
  stream.on('error', ignoreClosedPipe);
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}

/** The real process: stdout, stderr, environment and signals. A second signal stops at once. */
export function processIo(): CliIo {
  let stop: Promise<string> | null = null;
  dropLinesOnceReaderGone(process.stdout);
  dropLinesOnceReaderGone(process.stderr);
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
    stopRequested() {
      stop ??= new Promise((resolve) => {
        const onSignal = (signal: NodeJS.Signals) => {
          process.removeListener('SIGTERM', onSignal);
          process.removeListener('SIGINT', onSignal);
          const force = (again: NodeJS.Signals) => {
            process.stderr.write(`${again} again: stopping without waiting for requests in flight\n`);
            process.exit(1);
          };
          process.once('SIGTERM', force);
          process.once('SIGINT', force);
          resolve(signal);
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      });
      return stop;
    },
  };
}
