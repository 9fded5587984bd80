import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_ERROR_KINDS } from '../../src/kernel/errors';
import { answerOf, kindOfAnswer } from '../../src/edge/error-table';

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

describe('kindOfAnswer: the error table read backwards', () => {
  it('gives back every kind from the answer answerOf gives it', () => {
    for (const kind of DOMAIN_ERROR_KINDS) {
      const { status, errorCode } = answerOf(kind);
      expect(kindOfAnswer(status, errorCode)).toBe(kind);
    }
  });

  it('reads a status one kind answers whatever its code, and anything else as invalid_parameter', () => {
    expect(kindOfAnswer(404, null)).toBe('not_found');
    expect(kindOfAnswer(401, 4)).toBe('unauthenticated');
    expect(kindOfAnswer(400, 99)).toBe('invalid_parameter');
    expect(kindOfAnswer(500, null)).toBe('invalid_parameter');
  });
});
