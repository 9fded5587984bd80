import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../../src/graphql/limits';
import { DATASET_PLANS, graphqlSchema } from '../../src/modules';
import { MAX_TOKENS } from '../../src/graphql/server';
import type { KnownDocument, TrustedDocumentsRepository } from '../../src/auth/trusted-documents.ports';
import {
  checkManifest,
  documentIdOf,
  MISS_MEMORY_MS,
  TrustedDocumentGate,
} from '../../src/graphql/trusted-documents';
import { importDataset } from '../../src/store/dataset/dataset.import';
import { openStore } from '../../src/store/database';
import { SqlTrustedDocumentsRepository } from '../../src/store/repositories/trusted-documents.repository';
import { runCommand, tempDir } from '../cli/cli-support';
import { buildWorld, worldDataset } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { codesOf, postGraphql } from './graphql-client';
import { walkItems, type Send } from './front-end/walk-items';
import { buildItem } from '../support/factories';

/** The manifest GraphQL Code Generator's client preset writes for the test operations (npm run codegen). */
const MANIFEST_FILE = path.join(__dirname, '../generated/persisted/persisted-documents.json');
const manifest = JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as Record<string, string>;

/** The manifest's entry for an operation, by name. */
function documentNamed(name: string): { id: string; text: string } {
  const entry = Object.entries(manifest).find(([, text]) => text.startsWith(`query ${name}(`));
  if (!entry) throw new Error(`no ${name} in the manifest`);
  return { id: entry[0], text: entry[1] };
}

const overview = documentNamed('FacilityOverview');
const notInManifest = 'query Stray($id: UUID!) { facility(id: $id) { name } }';

describeEachDialect('trusted documents', (dialect) => {
  let t: TestApp;
  let required: FastifyInstance;
  let off: FastifyInstance;
  const send = (app: FastifyInstance, body: unknown, bearer = t.world.client.bearer_token) =>
    postGraphql<{ facility: { name: string } }>(app, body, { bearer });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const check = checkManifest(
      JSON.stringify(manifest),
      graphqlSchema(),
      [queryLimitsRule(DEFAULT_QUERY_LIMITS)],
      { maxTokens: MAX_TOKENS, now: new Date().toISOString() },
    );
    expect(check.problems).toEqual([]);
    await new SqlTrustedDocumentsRepository(t.db.store.db).add(t.world.client.id, check.documents);
    required = (await createInstance(t.db.store, { env: { TRUSTED_DOCUMENTS: 'require' } })).app;
    off = (await createInstance(t.db.store, { env: { TRUSTED_DOCUMENTS: 'off' } })).app;
    await Promise.all([required.ready(), off.ready()]);
  });
  afterAll(async () => {
    await Promise.all([required.close(), off.close()]);
    await t.close();
  });

  const variables = () => ({ facilityId: t.world.facility.id });

  it('answers a document by its id, as the client preset sends it, in allow and require modes', async () => {
    for (const app of [t.app, required]) {
      const res = await send(app, { documentId: overview.id, variables: variables() });
      expect(res.errors).toBeUndefined();
      expect(res.data?.facility.name).toBe(t.world.facility.name);
    }
    // The bare hash names the same document.
    const bare = await send(required, {
      documentId: overview.id.replace('sha256:', ''),
      variables: variables(),
    });
    expect(bare.data?.facility.name).toBe(t.world.facility.name);
  });

  it('in require mode answers the known text, and refuses other text and unknown ids, naming them', async () => {
    const known = await send(required, { query: overview.text, variables: variables() });
    expect(known.data?.facility.name).toBe(t.world.facility.name);

    const stray = await send(required, { query: notInManifest, variables: { id: t.world.facility.id } });
    expect(stray.status).toBe(400);
    expect(codesOf(stray)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(stray.errors![0].extensions.documentId).toBe(documentIdOf(notInManifest));
    expect(stray.errors![0].message).toContain('not one of this client application');
    expect(stray.data).toBeUndefined();

    const unknown = 'a'.repeat(64);
    for (const app of [t.app, required]) {
      const res = await send(app, { documentId: unknown });
      expect(res.status).toBe(400);
      expect(res.errors).toEqual([
        {
          message: expect.stringContaining(
            'No trusted document of this documentId for this client application',
          ),
          extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', documentId: unknown },
        },
      ]);
    }
    // An automatic persisted query's hash alone: a trusted document answers it, another is refused.
    const apq = (hash: string) => ({
      variables: variables(),
      extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
    });
    const byHash = await send(required, apq(overview.id.replace('sha256:', '')));
    expect(byHash.data?.facility.name).toBe(t.world.facility.name);
    expect(codesOf(await send(required, apq(unknown)))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it("keeps each client application's documents to itself", async () => {
    const other = await send(
      required,
      { documentId: overview.id, variables: variables() },
      t.world.otherClient.bearer_token,
    );
    expect(codesOf(other)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it("counts operations by a trusted document's name and the cache's result, any other name as other", async () => {
    const counts = async (app = required) => {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      const found: Record<string, number> = {};
      for (const m of text.matchAll(
        /^graphql_operations_total\{operation="([^"]*)",cache="(\w+)"\} (\d+)$/gm,
      )) {
        found[`${m[1]} ${m[2]}`] = Number(m[3]);
      }
      return found;
    };
    const before = await counts();
    const delta = async () => {
      const after = await counts();
      return Object.fromEntries(
        Object.entries(after)
          .map(([key, value]) => [key, value - (before[key] ?? 0)])
          .filter(([, value]) => value !== 0),
      );
    };
    for (let i = 0; i < 2; i++) {
      expect((await send(required, { documentId: overview.id, variables: variables() })).status).toBe(200);
    }
    // The caller's own operation name never becomes a label.
    const named = `query Attacker${Date.now()}($facilityId: UUID!) { facility(id: $facilityId) { name } }`;
    expect((await send(t.app, { query: named, variables: variables() })).status).toBe(200);
    // Built and kept the first time this instance ran it (maybe in an earlier test), then answered as kept.
    const counted = await delta();
    expect(Object.keys(counted).every((key) => /^FacilityOverview (hit|miss)$/.test(key))).toBe(true);
    expect(counted['FacilityOverview hit']).toBeGreaterThanOrEqual(1);
    expect((counted['FacilityOverview hit'] ?? 0) + (counted['FacilityOverview miss'] ?? 0)).toBe(2);
    const free = await counts(t.app);
    const other = Object.entries(free).filter(([key]) => key.startsWith('other '));
    expect(other.reduce((sum, [, value]) => sum + value, 0)).toBeGreaterThanOrEqual(1);
    expect(Object.keys(free).some((key) => key.startsWith('Attacker'))).toBe(false);
  });

  it('refuses malformed ids, an id with text, and ids when off; free text still runs in allow and off', async () => {
    const malformed = await send(t.app, { documentId: 'sha256:XYZ' });
    expect(malformed.status).toBe(400);
    expect(malformed.errors![0]).toMatchObject({
      message: expect.stringContaining('"documentId" must be a SHA-256'),
      extensions: { code: 'BAD_REQUEST' },
    });
    const both = await send(t.app, { documentId: overview.id, query: overview.text });
    expect(both.errors![0].message).toBe('Send "documentId" or "query", not both.');
    const offId = await send(off, { documentId: overview.id, variables: variables() });
    expect(codesOf(offId)).toEqual(['PERSISTED_QUERY_NOT_SUPPORTED']);
    for (const app of [t.app, off]) {
      const free = await send(app, { query: notInManifest, variables: { id: t.world.facility.id } });
      expect(free.data?.facility.name).toBe(t.world.facility.name);
    }
  });
});

describe('the gate remembers what the store does not hold, for a while', () => {
  it('asks the store once per id within MISS_MEMORY_MS, and again after', async () => {
    let asked = 0;
    const held = new Map<string, KnownDocument>();
    const documents: TrustedDocumentsRepository = {
      find: async (_clientId, documentId) => {
        asked += 1;
        return held.get(documentId) ?? null;
      },
      list: async () => [],
      add: async () => 0,
    };
    let now = 1_000_000;
    const gate = new TrustedDocumentGate('allow', documents, () => now);
    const hash = documentIdOf(notInManifest);
    const apq = () => ({ variables: {}, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    for (let i = 0; i < 3; i++)
      expect(await gate.admit('client', apq())).toEqual({ refusal: null, operationNames: null });
    expect(asked).toBe(1);
    // Loaded meanwhile: answered once the memory of the miss has passed, and kept from then on.
    held.set(hash, { body: notInManifest, operationNames: ['Stray'] });
    now += MISS_MEMORY_MS + 1;
    const body = apq() as { query?: string };
    expect(await gate.admit('client', body)).toEqual({ refusal: null, operationNames: ['Stray'] });
    expect(body.query).toBe(notInManifest);
    await gate.admit('client', apq());
    expect(asked).toBe(2);
  });
});

describe('documents load and list (SQLite file)', () => {
  let dir: string;
  let remove: () => void;
  let databaseUrl: string;
  const world = buildWorld();
  const run = (argv: string[]) => runCommand(argv, { DATABASE_URL: databaseUrl });
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  beforeAll(async () => {
    ({ dir, remove } = tempDir());
    databaseUrl = `sqlite:${path.join(dir, 'ops.db')}`;
    expect((await run(['migrate'])).code).toBe(0);
    const store = openStore(databaseUrl);
    await importDataset(store, DATASET_PLANS, worldDataset(world));
    await store.close();
  });
  afterAll(() => remove());

  it('loads a manifest once, lists it, and a running service answers its documents', async () => {
    const loaded = await run(['documents', 'load', '--client', world.client.id, MANIFEST_FILE]);
    expect(loaded).toMatchObject({ code: 0, err: '' });
    const count = Object.keys(manifest).length;
    expect(loaded.out).toContain(
      `loaded ${count} documents for client application ${world.client.id} (${count} new, 0 already known)`,
    );
    const again = await run(['documents', 'load', '--client', world.client.id, MANIFEST_FILE]);
    expect(again.out).toContain(`(0 new, ${count} already known)`);

    const listed = await run(['documents', 'list', '--client', world.client.id, '--json']);
    const rows = JSON.parse(listed.out) as Array<{ document_id: string; operation_names: string[] }>;
    expect(rows).toHaveLength(count);
    expect(rows).toContainEqual(
      expect.objectContaining({
        document_id: overview.id.replace('sha256:', ''),
        operation_names: ['FacilityOverview'],
      }),
    );
    const text = await run(['documents', 'list', '--client', world.otherClient.id]);
    expect(text.out).toBe(`client application ${world.otherClient.id} has no trusted documents`);

    const store = openStore(databaseUrl);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', TRUSTED_DOCUMENTS: 'require' });
    const { app } = await buildApp({ config, store });
    try {
      const res = await postGraphql<{ facility: { name: string } }>(
        app,
        { documentId: overview.id, variables: { facilityId: world.facility.id } },
        { bearer: world.client.bearer_token },
      );
      expect(res.data?.facility.name).toBe(world.facility.name);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it("walks a connection by the client preset's typed document, sent by its id from the loaded manifest", async () => {
    expect((await run(['documents', 'load', '--client', world.client.id, MANIFEST_FILE])).code).toBe(0);
    const store = openStore(databaseUrl);
    const items = Array.from({ length: 12 }, (_, n) =>
      buildItem({ facility_id: world.facility.id, description: `item ${String(n).padStart(2, '0')}` }),
    );
    await importDataset(store, DATASET_PLANS, { version: 1, invoiceable_items: items });
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', TRUSTED_DOCUMENTS: 'require' });
    const { app } = await buildApp({ config, store });
    try {
      const send: Send = async <TData>(body: { documentId: string; variables: unknown }) => {
        const answer = await postGraphql<TData>(app, body, { bearer: world.client.bearer_token });
        return { data: answer.data, errors: answer.errors };
      };
      const walked: string[] = [];
      for await (const item of walkItems(send, world.facility.id, 5)) walked.push(item.description);
      expect(walked).toEqual(items.map((item) => item.description));
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('refuses a malformed manifest whole, naming each problem, and writes nothing', async () => {
    const good = 'query Good($id: UUID!) { facility(id: $id) { name } }';
    const bad = {
      [documentIdOf(good)]: good,
      ['b'.repeat(64)]: 'query Wrong { facility { name } }',
      [documentIdOf('query { nope }')]: 'query { nope }',
      [documentIdOf('query {')]: 'query {',
      'not-an-id': 'query { __typename }',
    };
    const res = await run(['documents', 'load', '--client', world.otherClient.id, write('bad.json', bad)]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('refused, nothing was written (4 problems)');
    expect(res.err).toContain(`${'b'.repeat(64)}: is not the SHA-256 of its text`);
    expect(res.err).toContain(
      `${documentIdOf('query { nope }')}: Cannot query field "nope" on type "Query".`,
    );
    expect(res.err).toContain(`${documentIdOf('query {')}: does not parse: Syntax Error`);
    expect(res.err).toContain('"not-an-id": not a document id');
    const listed = await run(['documents', 'list', '--client', world.otherClient.id, '--json']);
    expect(JSON.parse(listed.out)).toEqual([]);

    const notJson = await run(['documents', 'load', '--client', world.client.id, write('x.json', '{')]);
    expect(notJson.code).toBe(1);
    expect(notJson.err).toContain('not JSON');
    const array = await run(['documents', 'load', '--client', world.client.id, write('a.json', [good])]);
    expect(array.err).toContain('expected a JSON object of document id (SHA-256 hex) to document text');
  });

  it('answers usage errors and unknown clients clearly', async () => {
    const noClient = await run(['documents', 'load', MANIFEST_FILE]);
    expect(noClient.code).toBe(2);
    expect(noClient.err).toContain('facility-ops: --client <id> is required');
    const notUuid = await run(['documents', 'list', '--client', 'desk']);
    expect(notUuid.err).toContain('--client must be a client application id (a UUID), got "desk"');
    const unknown = await run(['documents', 'list', '--client', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no client application 00000000-0000-4000-8000-000000000000');
    const noFile = await run(['documents', 'load', '--client', world.client.id, path.join(dir, 'none.json')]);
    expect(noFile.err).toContain('no file');
    const action = await run(['documents', 'drop']);
    expect(action.err).toContain('unknown documents action "drop" (load, list)');
  });
});
