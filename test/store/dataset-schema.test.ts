import fs from 'node:fs';
import path from 'node:path';
import { datasetSchema, datasetSchemaFileText } from '../../src/store/dataset/dataset.schema';

/** The published format, kept beside the project's folder (shared/ holds the contract's files). */
const PUBLISHED = path.join(__dirname, '..', '..', '..', 'shared', 'dataset.schema.json');

describe('the dataset format', () => {
  it('is the published dataset.schema.json, key for key and in its order', () => {
    const published: unknown = JSON.parse(fs.readFileSync(PUBLISHED, 'utf8'));
    expect(JSON.stringify(datasetSchema, null, 2)).toBe(JSON.stringify(published, null, 2));
  });

  it('is the file dataset.schema.json in the project folder, byte for byte as published', () => {
    const published = fs.readFileSync(PUBLISHED, 'utf8');
    expect(datasetSchemaFileText()).toBe(published);
    expect(fs.readFileSync(path.join(__dirname, '..', '..', 'dataset.schema.json'), 'utf8')).toBe(published);
  });
});
