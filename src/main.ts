// First: the heap is kept through quiet spells (ops/heap), which must be set before it grows.
import './ops/keep-heap';
import 'reflect-metadata';
import { runCli } from './cli/cli';
import { processIo } from './cli/io';

export { runCli } from './cli/cli';

/** The command line: `facility-ops <command>` (see `facility-ops help`). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const code = await runCli(argv, processIo());
  process.exitCode = code;
  // A handle left open by a library must not keep a finished command alive.
  setTimeout(() => process.exit(code), 5_000).unref();
}

if (require.main === module) void main();
