import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dataset } from '../dataset/dataset.types';

/** The lists of a dataset file, in the order they are written (referenced records first). */
export const DATASET_LISTS = [
  'companies',
  'facilities',
  'flippers',
  'tenants',
  'units',
  'ledgers',
  'ledger_insurances',
  'ledger_services',
  'ledger_discounts',
  'rate_applied_actions',
  'events',
  'event_documents',
  'invoiceable_items',
  'payment_methods',
  'rate_changes',
  'client_applications',
] as const;

/**
 * Writes a sequence of datasets as one dataset file, one record per line, without holding it all in
 * memory: each list goes to a scratch file first and the lists are joined at the end. The file
 * appears under its name only once complete. Returns the number of records per list.
 */
export function writeDatasetFile(target: string, parts: Iterable<Dataset>): Record<string, number> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-dataset-'));
  const counts: Record<string, number> = {};
  const handles = new Map<string, number>();
  try {
    for (const part of parts) {
      for (const list of DATASET_LISTS) {
        const records = part[list] as unknown[] | undefined;
        if (!records?.length) continue;
        let handle = handles.get(list);
        if (handle === undefined) {
          handle = fs.openSync(path.join(scratch, list), 'w');
          handles.set(list, handle);
        }
        const text = records.map((record) => JSON.stringify(record)).join(',\n');
        fs.writeSync(handle, counts[list] ? `,\n${text}` : text);
        counts[list] = (counts[list] ?? 0) + records.length;
      }
    }
    for (const handle of handles.values()) fs.closeSync(handle);
    handles.clear();

    const partial = `${target}.partial`;
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    const out = fs.openSync(partial, 'w');
    let complete = false;
    try {
      fs.writeSync(out, '{\n"version": 1');
      const buffer = Buffer.alloc(1 << 20);
      for (const list of DATASET_LISTS) {
        if (!counts[list]) continue;
        fs.writeSync(out, `,\n"${list}": [\n`);
        const input = fs.openSync(path.join(scratch, list), 'r');
        try {
          let read: number;
          while ((read = fs.readSync(input, buffer, 0, buffer.length, null)) > 0)
            fs.writeSync(out, buffer, 0, read);
        } finally {
          fs.closeSync(input);
        }
        fs.writeSync(out, '\n]');
      }
      fs.writeSync(out, '\n}\n');
      complete = true;
    } finally {
      fs.closeSync(out);
      if (!complete) fs.rmSync(partial, { force: true });
    }
    fs.renameSync(partial, target);
    return counts;
  } finally {
    for (const handle of handles.values()) fs.closeSync(handle);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
