import path from 'node:path';
import { ESLint } from 'eslint';

/** What `npm run check` says of a file with these imports at this place. */
async function importProblems(file: string, code: string): Promise<string[]> {
  // The project's own configuration, handed over as it is (jest cannot load it by file).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require('../../eslint.config.js') as ESLint.Options['overrideConfig'];
  const eslint = new ESLint({
    cwd: path.join(__dirname, '../..'),
    overrideConfigFile: true,
    overrideConfig: config,
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(__dirname, '../..', file) });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.split(' import')[0]);
}

describe('the dependency rule (transport -> domain <- store and adapters)', () => {
  it.each([
    ['src/domain/notes/probe.ts', "import { sql } from 'kysely';", ["'kysely'"]],
    [
      'src/domain/notes/probe.ts',
      "import type { Db } from '../../store/database';",
      ["'../../store/database'"],
    ],
    ['src/domain/notes/probe.ts', "import type { FastifyRequest } from 'fastify';", ["'fastify'"]],
    ['src/domain/notes/probe.ts', "import { sendOk } from '../../rest/envelope';", ["'../../rest/envelope'"]],
    ['src/domain/notes/probe.ts', "import PDFDocument from 'pdfkit';", ["'pdfkit'"]],
    [
      'src/rest/probe.ts',
      "import { SqlNotesRepository } from '../store/repositories/notes.repository';",
      ["'../store/repositories/notes.repository'"],
    ],
    [
      'src/graphql/probe.ts',
      "import { SmtpEmailTransport } from '../adapters/email/smtp.transport';",
      ["'../adapters/email/smtp.transport'"],
    ],
    ['src/presenters/probe.ts', "import { Field } from 'type-graphql';", ["'type-graphql'"]],
    ['src/store/probe.ts', "import { sendOk } from '../rest/envelope';", ["'../rest/envelope'"]],
  ])('refuses, in %s: %s', async (file, code, refused) => {
    expect(await importProblems(file, `${code}\nexport {};\n`)).toEqual(refused);
  });

  it.each([
    ['src/domain/notes/probe.ts', "import { DomainError } from '../errors';"],
    ['src/rest/probe.ts', "import type { NoteEvent } from '../domain/notes/notes.types';"],
    ['src/store/probe.ts', "import type { NotesRepository } from '../domain/notes/notes.ports';"],
  ])('allows, in %s: %s', async (file, code) => {
    expect(await importProblems(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
