import type { Config } from '../config';
import { isValidDate } from '../kernel/time';
import { DATASET_PLANS } from '../modules';
import { demoDatasetParts, type DemoOptions } from '../store/seed/demo-data';
import { writeDatasetFile } from '../store/seed/dataset-file';
import { seedDemoData, type SeedResult } from '../store/seed/seed';
import type { Store } from '../store/database';
import { parseCommandArgs, UsageError, wholeNumberOption } from './args';
import { countLines, describeDatabase, formatCount, withMigratedStore } from './context';
import type { CliIo } from './io';

/** Largest `--scale`: scale 100 is about three million records. */
const MAX_SCALE = 1000;
const PROGRESS_EVERY = 500_000;

/** `seed [--scale N] [--today YYYY-MM-DD] [--out file.json]`. */
export async function seedCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { scale: { type: 'string' }, today: { type: 'string' }, out: { type: 'string' } },
    0,
  );
  const today = values.today === undefined ? utcToday(io) : String(values.today);
  if (!isValidDate(today)) throw new UsageError(`--today must be a date YYYY-MM-DD, got "${today}"`);
  const options: DemoOptions = {
    scale: wholeNumberOption(values.scale, '--scale', 1, MAX_SCALE) ?? 1,
    today,
    now: asOfNow(io, today),
  };

  if (typeof values.out === 'string') {
    const started = process.hrtime.bigint();
    const counts = writeDatasetFile(values.out, demoDatasetParts(options));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    io.out(
      `wrote demo data (scale ${options.scale}, reference date ${today}) to ${values.out} in ${seconds.toFixed(1)} s:`,
    );
    for (const line of countLines(counts)) io.out(line);
    return 0;
  }

  await withMigratedStore(config, io, async (store) => {
    io.out(
      `seeding demo data (scale ${options.scale}, reference date ${today}) into ${describeDatabase(config)}`,
    );
    printSeedResult(io, await seed(store, options, io));
  });
  return 0;
}

/** Loads the demo data with progress lines. */
export function seed(store: Store, options: DemoOptions, io: CliIo): Promise<SeedResult> {
  let next = PROGRESS_EVERY;
  return seedDemoData(store, DATASET_PLANS, options, (records) => {
    if (records < next) return;
    io.out(`  ${formatCount(records)} records...`);
    next = (Math.floor(records / PROGRESS_EVERY) + 1) * PROGRESS_EVERY;
  });
}

export function printSeedResult(io: CliIo, result: SeedResult): void {
  io.out(
    `loaded ${formatCount(result.records)} records in ${result.seconds.toFixed(1)} s ` +
      `(${formatCount(result.recordsPerSecond)} records/s):`,
  );
  for (const line of countLines(result.counts)) io.out(line);
}

/**
 * The instant demo data of the reference date is as of: now when that date is today (UTC), so
 * nothing is dated later in any facility's zone; otherwise none (the data runs to the date's end).
 */
export function asOfNow(io: CliIo, today: string): string | undefined {
  const now = io.now?.() ?? new Date();
  return now.toISOString().slice(0, 10) === today ? now.toISOString() : undefined;
}

/** The current UTC date: the default reference date of the demo data. */
export function utcToday(io: CliIo): string {
  return (io.now?.() ?? new Date()).toISOString().slice(0, 10);
}
