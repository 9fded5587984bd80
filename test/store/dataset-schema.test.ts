import fs from 'node:fs';
import path from 'node:path';
import { datasetSchema, datasetSchemaFileText } from '../../src/store/dataset/dataset.schema';

/**
 * The published format, as the repository keeps it: `dataset.schema.json` in the project folder is
 * the published file itself, so the tests need nothing beside the repository.
 */
const KEPT = path.join(__dirname, '..', '..', 'dataset.schema.json');

describe('the dataset format', () => {
  it('is the kept dataset.schema.json, key for key and in its order', () => {
    const kept: unknown = JSON.parse(fs.readFileSync(KEPT, 'utf8'));
    expect(JSON.stringify(datasetSchema, null, 2)).toBe(JSON.stringify(kept, null, 2));
  });

  it('is written as the kept dataset.schema.json, byte for byte', () => {
    expect(datasetSchemaFileText()).toBe(fs.readFileSync(KEPT, 'utf8'));
  });
});
