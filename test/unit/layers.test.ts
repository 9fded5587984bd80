import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import type { GraphqlContext } from '../../src/graphql/context';

/** What ESLint, with the project's own configuration, says of this code at this place. */
async function lintMessages(file: string, code: string) {
  // The project's own configuration, handed over as it is (jest cannot load it by file).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require('../../eslint.config.js') as ESLint.Options['overrideConfig'];
  const eslint = new ESLint({
    cwd: path.join(__dirname, '../..'),
    overrideConfigFile: true,
    overrideConfig: config,
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(__dirname, '../..', file) });
  return result.messages;
}

/** What `npm run check` says of a file with these imports at this place. */
async function importProblems(file: string, code: string): Promise<string[]> {
  return (await lintMessages(file, code))
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.split(' import')[0]);
}

describe('the dependency rule (transport -> domain <- store and adapters)', () => {
  it.each([
    ['src/areas/notes/probe.ts', "import { sql } from 'kysely';", ["'kysely'"]],
    [
      'src/areas/notes/probe.ts',
      "import type { Db } from '../../store/database';",
      ["'../../store/database'"],
    ],
    ['src/areas/notes/probe.ts', "import type { FastifyRequest } from 'fastify';", ["'fastify'"]],
    ['src/areas/notes/probe.ts', "import { sendOk } from '../../rest/envelope';", ["'../../rest/envelope'"]],
    ['src/areas/notes/probe.ts', "import PDFDocument from 'pdfkit';", ["'pdfkit'"]],
    [
      'src/rest/probe.ts',
      "import { SqlNotesRepository } from '../areas/notes/notes.repository';",
      ["'../areas/notes/notes.repository'"],
    ],
    [
      'src/graphql/probe.ts',
      "import { SmtpEmailTransport } from '../adapters/email/smtp.transport';",
      ["'../adapters/email/smtp.transport'"],
    ],
    ['src/areas/notes/probe.presenter.ts', "import { Field } from 'type-graphql';", ["'type-graphql'"]],
    ['src/store/probe.ts', "import { sendOk } from '../rest/envelope';", ["'../rest/envelope'"]],
  ])('refuses, in %s: %s', async (file, code, refused) => {
    expect(await importProblems(file, `${code}\nexport {};\n`)).toEqual(refused);
  });

  it.each([
    ['src/areas/notes/probe.ts', "import { DomainError } from '../../kernel/errors';"],
    ['src/rest/probe.ts', "import type { NoteEvent } from '../areas/notes/notes.types';"],
    ['src/store/probe.ts', "import type { NotesRepository } from '../areas/notes/notes.ports';"],
  ])('allows, in %s: %s', async (file, code) => {
    expect(await importProblems(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});

describe('a migration imports only kysely, the dialect helpers and older migrations', () => {
  const MIGRATION = 'src/store/migrations/20990101120000_probe.ts';
  it.each([
    ["import { InvoiceableItem } from '../../contract';", ["'../../contract'"]],
    [
      "import { ITEM_COLUMNS } from '../../areas/invoiceable-items/invoiceable-items.repository';",
      ["'../../areas/invoiceable-items/invoiceable-items.repository'"],
    ],
    ["import type { Db } from '../database';", ["'../database'"]],
    ["import { Client } from 'pg';", ["'pg'"]],
  ])('refuses %s', async (code, refused) => {
    expect(await importProblems(MIGRATION, `${code}\nexport {};\n`)).toEqual(refused);
  });

  it('names the layer it may not reach as well', async () => {
    const problems = await lintMessages(
      MIGRATION,
      "import { InvoiceableItem } from '../../contract';\nexport {};\n",
    );
    expect(problems.map((m) => m.message)).toContainEqual(
      expect.stringContaining('migrations may not import contract'),
    );
  });

  it.each([
    "import { sql, type Kysely } from 'kysely';",
    "import { isPostgres } from '../dialect';",
    "import { createSqliteTriggers } from './20261121130000_rate_change_counts';",
  ])('allows %s', async (code) => {
    const problems = await lintMessages(MIGRATION, `${code}\nexport {};\n`);
    expect(problems.filter((m) => m.ruleId !== '@typescript-eslint/no-unused-vars')).toEqual([]);
  });

  it('holds for every migration kept', async () => {
    const folder = path.join(__dirname, '../../src/store/migrations');
    for (const name of fs.readdirSync(folder)) {
      const file = `src/store/migrations/${name}`;
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      expect({ file, problems: (await lintMessages(file, text)).map((m) => m.message) }).toEqual({
        file,
        problems: [],
      });
    }
  }, 60_000);
});

/** The layer rule's findings (eslint-plugin-boundaries) for a file with this code at this place. */
async function layerProblems(file: string, code: string): Promise<string[]> {
  return (await lintMessages(file, code))
    .filter((m) => m.ruleId?.startsWith('boundaries/'))
    .map((m) => m.message);
}

describe('the layer rule covers every folder of src', () => {
  it.each([
    ['src/edge/probe.ts', "import { sendOk } from '../rest/envelope';", 'edge may not import transport'],
    [
      'src/edge/probe.ts',
      "import type { GraphqlContext } from '../graphql/context';",
      'edge may not import transport',
    ],
    ['src/ops/probe.ts', "import { registerV1Routes } from '../rest/v1';", 'ops may not import transport'],
    ['src/ops/probe.ts', "import { isReady } from '../store/database';", 'ops may not import store'],
    ['src/store/probe.ts', "import { runCli } from '../cli/cli';", 'store may not import cli'],
    [
      'src/adapters/probe.ts',
      "import { openStore } from '../store/database';",
      'adapters may not import store',
    ],
    ['src/config.ts', "import { buildApp } from './app';", 'settings may not import root'],
    [
      'src/areas/notes/probe.ts',
      "export async function later() { return import('../../store/database'); }",
      'domain may not import store',
    ],
    [
      'src/areas/notes/probe.presenter.ts',
      "export * from '../../graphql/scalars';",
      'presenters may not import transport',
    ],
    // In an area, a file's kind is named by its suffix; the rest of the area is its domain.
    [
      'src/areas/notes/probe.ts',
      "import { SqlNotesRepository } from './notes.repository';",
      'domain may not import store',
    ],
    [
      'src/areas/notes/probe.ts',
      "import { NotesResolver } from './notes.resolver';",
      'domain may not import transport',
    ],
    [
      'src/areas/notes/probe.repository.ts',
      "import { registerNotesRoutes } from './notes.routes';",
      'store may not import transport',
    ],
    [
      'src/areas/notes/probe.routes.ts',
      "import { openStore } from '../../store/database';",
      'transport may not import store',
    ],
    [
      'src/gateway/probe.ts',
      "import { openStore } from '../store/database';",
      'transport may not import store',
    ],
    [
      'src/areas/notes/probe.ts',
      "import { toContract } from './note-event.contract';",
      'domain may not import contract',
    ],
    [
      'src/areas/notes/probe.contract.ts',
      "import { NoteObject } from './notes.graphql';",
      'contract may not import transport',
    ],
    // Transports name the few services they use; the composition root hands them over.
    [
      'src/areas/notes/probe.resolver.ts',
      "import type { Services } from '../../services';",
      'transport may not import root',
    ],
    ['src/graphql/probe.ts', "import type { Services } from '../services';", 'transport may not import root'],
    ['src/rest/probe.ts', "import { createServices } from '../services';", 'transport may not import root'],
    ['src/live/probe.ts', "import type { App } from '../app';", 'live may not import root'],
    // The live events' journal and channel reach src/live as the domain's ports, not the store.
    ['src/live/probe.ts', "import type { Store } from '../store/database';", 'live may not import store'],
  ])('refuses, in %s: %s', async (file, code, refused) => {
    expect((await layerProblems(file, `${code}\nexport {};\n`)).map((m) => m.split(' (')[0])).toEqual([
      refused,
    ]);
  });

  it('refuses a file in a folder no kind names', async () => {
    expect(await layerProblems('src/newfolder/probe.ts', 'export const x = 1;\n')).toEqual([
      expect.stringMatching(/does not belong to any known element/),
    ]);
  });

  it.each([
    ['src/rest/probe.ts', "import { requestIdFrom } from '../edge/request-id';"],
    ['src/store/probe.ts', "import { utf8 } from '../fast-paths';"],
    ['src/cli/probe.ts', "import { buildApp } from '../app';"],
    ['src/areas/notes/probe.routes.ts', "import { NotesService } from './notes.service';"],
    ['src/areas/notes/probe.resolver.ts', "import { NoteType } from './notes.graphql';"],
    ['src/areas/notes/probe.repository.ts', "import type { NotesRepository } from './notes.ports';"],
    ['src/areas/esign/signing/probe.ts', "import { SigningService } from '../signing.service';"],
    ['src/areas/notes/probe.routes.ts', "import { toContract } from './note-event.contract';"],
    ['src/store/probe.ts', "import { listing } from '../areas/invoiceable-items/invoiceable-item.contract';"],
    ['src/areas/notes/probe.ts', "export async function later() { return import('../../kernel/errors'); }"],
  ])('allows, in %s: %s', async (file, code) => {
    expect(await layerProblems(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});

/** What the rule between areas says of a file with these imports at this place. */
async function areaProblems(file: string, code: string): Promise<string[]> {
  return (await lintMessages(file, code))
    .filter((m) => m.ruleId === 'areas/public-imports')
    .map((m) => m.message.split(':')[0]);
}

describe("between areas, only an area's types, ports, events and GraphQL types are imported", () => {
  it.each([
    [
      'src/areas/ledgers/probe.ts',
      "import type { NotesService } from '../notes/notes.service';",
      "notes/notes.service is the notes area's own",
    ],
    [
      'src/areas/ledgers/probe.repository.ts',
      "import { SqlNotesRepository } from '../notes/notes.repository';",
      "notes/notes.repository is the notes area's own",
    ],
    [
      'src/areas/ledgers/probe.resolver.ts',
      "import { NotesResolver } from '../notes/notes.resolver';",
      "notes/notes.resolver is the notes area's own",
    ],
    [
      'src/areas/ledgers/probe.ts',
      "export { toContract } from '../notes/note-event.contract';",
      "notes/note-event.contract is the notes area's own",
    ],
    [
      'src/areas/ledgers/probe.ts',
      "export async function later() { return import('../webhooks/webhooks.service'); }",
      "webhooks/webhooks.service is the webhooks area's own",
    ],
    // No file is let past another area's declarations, not even those that once were.
    [
      'src/areas/ledgers/ledgers.resolver.ts',
      "import type { PaymentsService } from '../payments/payments.service';",
      "payments/payments.service is the payments area's own",
    ],
    [
      'src/areas/tenants/tenants.resolver.ts',
      "import { NotesResolver } from '../notes/notes.resolver';",
      "notes/notes.resolver is the notes area's own",
    ],
    [
      'src/areas/live/live.resolver.ts',
      "import { present } from '../documents/event-document.contract';",
      "documents/event-document.contract is the documents area's own",
    ],
    [
      'src/areas/events/events.service.ts',
      "import { events } from '../documents/documents.tables';",
      "documents/documents.tables is the documents area's own",
    ],
    [
      'src/areas/esign/esign.repository.ts',
      "import { outboxRows } from '../outbox/outbox.repository';",
      "outbox/outbox.repository is the outbox area's own",
    ],
    [
      'src/areas/notes/notes.graphql.ts',
      "import type { LedgersService } from '../ledgers/ledgers.service';",
      "ledgers/ledgers.service is the ledgers area's own",
    ],
  ])('refuses, in %s: %s', async (file, code, refused) => {
    expect(await areaProblems(file, `${code}\nexport {};\n`)).toEqual([refused]);
  });

  it.each([
    ['src/areas/ledgers/probe.ts', "import type { NoteEvent } from '../notes/notes.types';"],
    ['src/areas/ledgers/probe.ts', "import type { NoteReads } from '../notes/notes.ports';"],
    ['src/areas/ledgers/probe.ts', "import { NOTES_EVENTS } from '../notes/notes.events';"],
    ['src/areas/ledgers/probe.resolver.ts', "import { NoteEventObject } from '../notes/notes.graphql';"],
    ['src/areas/live/probe.graphql.ts', "import type { NoteEventView } from '../notes/notes.graphql';"],
    ['src/areas/notes/probe.ts', "import { NotesService } from './notes.service';"],
    ['src/rest/probe.ts', "import type { NotesService } from '../areas/notes/notes.service';"],
  ])('allows, in %s: %s', async (file, code) => {
    expect(await areaProblems(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});

/** What the rule of an area's GraphQL types (declarations only) says of a file with these imports. */
async function declarationProblems(file: string, code: string): Promise<string[]> {
  return (await lintMessages(file, code))
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe("an area's GraphQL types are declarations only", () => {
  const REFUSED = "An area's *.graphql.ts declares types";
  it.each([
    "import { FieldResolver } from 'type-graphql';",
    "import { Resolver, Root } from 'type-graphql';",
    "import { NotesResolver } from './notes.resolver';",
    "import type { NotesService } from './notes.service';",
    "import { SqlNotesRepository } from './notes.repository';",
    "import { notesLoaders } from './notes.loaders';",
  ])('refuses, in src/areas/notes/probe.graphql.ts: %s', async (code) => {
    const problems = await declarationProblems('src/areas/notes/probe.graphql.ts', `${code}\nexport {};\n`);
    expect(problems).not.toEqual([]);
    for (const problem of problems) expect(problem).toContain(REFUSED);
  });

  it.each([
    "import { Field, ObjectType, registerEnumType } from 'type-graphql';",
    "import type { NoteEvent } from './notes.types';",
    "import { present } from './note-event.contract';",
    "import { TenantObject } from '../tenants/tenants.graphql';",
  ])('allows, in src/areas/notes/probe.graphql.ts: %s', async (code) => {
    expect(await declarationProblems('src/areas/notes/probe.graphql.ts', `${code}\nexport {};\n`)).toEqual(
      [],
    );
  });

  it('allows a resolver its decorators', async () => {
    expect(
      await declarationProblems(
        'src/areas/notes/probe.resolver.ts',
        "import { FieldResolver, Resolver } from 'type-graphql';\nexport {};\n",
      ),
    ).toEqual([]);
  });
});

const ROOT = path.join(__dirname, '../..');

/** The TypeScript files under a folder of the project, at any depth, from the project's root. */
function sourceFiles(folder: string): string[] {
  return (fs.readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

describe('each transport receives the services it uses', () => {
  it('gives resolvers request facts through the GraphQL context, not services', () => {
    // Fails to compile if the context carries services again.
    const servicesInContext: 'services' extends keyof GraphqlContext ? true : false = false;
    expect(servicesInContext).toBe(false);
    const readers = ['src/areas', 'src/graphql', 'src/gateway', 'src/live']
      .flatMap(sourceFiles)
      .filter((file) =>
        /\b(ctx|context|contextValue)\.services\b/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
      );
    expect(readers).toEqual([]);
  });
});
