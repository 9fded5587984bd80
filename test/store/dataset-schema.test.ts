import fs from 'node:fs';
import path from 'node:path';
import { datasetSchema, datasetSchemaFileText } from '../../src/store/dataset/dataset.schema';

/** The published format, as the repository keeps it: `dataset.schema.json` in the project folder. */
const KEPT = path.join(__dirname, '..', '..', 'dataset.schema.json');

/**
 * Where the format is published from, beside the project's folder in our own checkouts: a clone
 * elsewhere has none of it, and the tests must pass there on what the repository holds alone.
 */
const PUBLISHED = path.join(__dirname, '..', '..', '..', 'shared', 'dataset.schema.json');

describe('the dataset format', () => {
  it('is the kept dataset.schema.json, key for key and in its order', () => {
    const kept: unknown = JSON.parse(fs.readFileSync(KEPT, 'utf8'));
    expect(JSON.stringify(datasetSchema, null, 2)).toBe(JSON.stringify(kept, null, 2));
  });

  it('is written as the kept dataset.schema.json, byte for byte', () => {
    expect(datasetSchemaFileText()).toBe(fs.readFileSync(KEPT, 'utf8'));
  });

  it('is kept as published, when the published file is beside the project', () => {
    if (!fs.existsSync(PUBLISHED)) {
      process.stdout.write(
        `\n*** published dataset format check SKIPPED: ${PUBLISHED} is absent (a clone on its own); the kept copy is checked above ***\n`,
      );
      return;
    }
    expect(fs.readFileSync(KEPT, 'utf8')).toBe(fs.readFileSync(PUBLISHED, 'utf8'));
  });
});
