import { secretBoxFor } from '../adapters/secrets/aes-gcm.secret-box';
import fs from 'node:fs/promises';
import type { Config } from '../config';
import { DATASET_PLANS } from '../modules';
import { importDataset, refreshPlannerStatistics } from '../store/dataset/dataset.import';
import { CommandFailure } from './args';
import { countLines, describeDatabase, withMigratedStore } from './context';
import type { CliIo } from './io';

/** `import <file>`: validates a dataset file as a whole and loads it in one transaction. */
export async function importCommand(config: Config, io: CliIo, file: string): Promise<number> {
  let dataset = await readDatasetFile(file);
  if (config.upstream) dataset = gatewayPart(dataset, io);
  const counts = await withMigratedStore(config, io, async (store) => {
    const written = await importDataset(store, DATASET_PLANS, dataset, {
      secrets: secretBoxFor(config.secrets),
    });
    await refreshPlannerStatistics(store, written);
    return written;
  });
  io.out(`imported ${file} into ${describeDatabase(config)}:`);
  for (const line of countLines(counts)) io.out(line);
  return 0;
}

/** What gateway mode keeps of a dataset: its callers (companies and client applications). */
const GATEWAY_LISTS = ['companies', 'client_applications'];

/**
 * In gateway mode the upstream keeps the data: only the callers are loaded, and the rest is named
 * as skipped, so one dataset file can provision both sides.
 */
function gatewayPart(dataset: unknown, io: CliIo): unknown {
  if (dataset === null || typeof dataset !== 'object' || Array.isArray(dataset)) return dataset;
  const kept: Record<string, unknown> = {};
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(dataset)) {
    if (key === 'version' || GATEWAY_LISTS.includes(key)) kept[key] = value;
    else if (Array.isArray(value)) skipped.push(`${value.length.toLocaleString('en-US')} ${key}`);
    else skipped.push(key);
  }
  if (skipped.length > 0) {
    io.out(`gateway mode: the upstream keeps the data; skipped ${skipped.join(', ')}`);
  }
  return kept;
}

/** Reads and parses a JSON file, with messages that say what is wrong with it. */
export async function readDatasetFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CommandFailure(`${file}: no such file`);
    if (code === 'EISDIR') throw new CommandFailure(`${file}: is a directory, not a dataset file`);
    if (code === 'ERR_STRING_TOO_LONG' || error instanceof RangeError) {
      throw new CommandFailure(
        `${file}: too large to read in one piece (about 512 MB at most); split it into several files ` +
          'and import them in order: later files may refer to records loaded by earlier ones',
      );
    }
    throw new CommandFailure(`${file}: cannot be read (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandFailure(`${file}: not valid JSON (${(error as Error).message})`);
  }
}
