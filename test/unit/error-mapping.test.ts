import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_ERROR_KINDS } from '../../src/domain/errors';
import { answerOf } from '../../src/edge/error-table';

const readme = fs.readFileSync(path.join(__dirname, '../../docs/rest.md'), 'utf8');

describe('DomainError kinds', () => {
  it.each(DOMAIN_ERROR_KINDS)('%s has a REST status and a documented row in the README', (kind) => {
    const { status, errorCode } = answerOf(kind);
    expect(status).toBeGreaterThanOrEqual(400);
    const cells = readme
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .find((row) => row[1] === `\`${kind}\``);
    expect(cells).toBeDefined();
    expect(cells![2]).toBe(String(status));
    expect(cells![3]).toBe(errorCode === null ? 'null' : String(errorCode));
  });
});
