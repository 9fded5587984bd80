import fs from 'node:fs';
import path from 'node:path';
import { datasetSchema } from '../../src/store/dataset/dataset.schema';

/** The published format, kept beside the project's folder (shared/ holds the contract's files). */
const PUBLISHED = path.join(__dirname, '..', '..', '..', 'shared', 'dataset.schema.json');

describe('the dataset format', () => {
  it('is the published dataset.schema.json, key for key and in its order', () => {
    const published: unknown = JSON.parse(fs.readFileSync(PUBLISHED, 'utf8'));
    expect(JSON.stringify(datasetSchema, null, 2)).toBe(JSON.stringify(published, null, 2));
  });
});
