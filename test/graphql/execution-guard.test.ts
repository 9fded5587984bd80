import 'reflect-metadata';
import { buildSchema, execute, GraphQLError, parse, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Ledger } from '../../src/areas/ledgers/ledgers.types';
import { LedgerObject } from '../../src/areas/ledgers/ledgers.graphql';
import { NoteEventObject } from '../../src/areas/notes/notes.graphql';
import { present as presentNoteEvent, type NoteEventView } from '../../src/areas/notes/note-event.contract';
import type { GraphqlContext } from '../../src/graphql/context';
import { Cost } from '../../src/graphql/cost-directives';
import { executionLimits, guardExecution } from '../../src/graphql/execution-guard';
import { formattedResult } from '../../src/live/live-operations';
import { RESOLVERS } from '../../src/modules';
import { buildLedger, buildTenant, buildUnit } from '../support/factories';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { codesOf, postGraphql, type GraphqlResponse } from './graphql-client';

/**
 * An estimate error on purpose: every note of a ledger, declared as one. The guard must hold
 * whatever a list declares, so this stands for any list whose declared size proves wrong.
 */
@Resolver(() => LedgerObject)
class MisdeclaredNotesResolver {
  @FieldResolver(() => [NoteEventObject])
  @Cost({ assumedSize: 1 })
  async everyNote(@Root() ledger: Ledger, @Ctx() ctx: GraphqlContext): Promise<NoteEventView[]> {
    const events = await ctx.loaders.notesByLedger.load(ledger.id);
    return events.map((event) => presentNoteEvent(event, 'UTC'));
  }
}

const NOTES = 300;

interface Nested {
  notes?: Nested[];
  everyNote?: Nested[];
  ledger?: Nested | null;
}

/** Note events at every level of a nested answer. */
function countNotes(node: Nested | null | undefined): number {
  if (!node) return 0;
  const list = node.notes ?? node.everyNote ?? [];
  return list.length + list.reduce((sum, entry) => sum + countNotes(entry.ledger), 0);
}

describeEachDialect('nested note lists at 300 notes on a ledger', (dialect) => {
  let t: TestApp;
  let misdeclared: FastifyInstance;
  const ids = { ledger: '', wordyLedger: '' };

  const ask = <T = { facility: { ledger: Nested | null } }>(
    app: FastifyInstance,
    query: string,
    variables: Record<string, unknown> = {},
    extensions?: unknown,
  ): Promise<GraphqlResponse<T>> =>
    postGraphql<T>(
      app,
      { query, variables: { facilityId: t.world.facility.id, ...variables }, extensions },
      { bearer: t.world.client.bearer_token },
    );

  /** `levels` of ledger -> notes -> ledger ..., through `list`. */
  const nested = (list: string, levels: number, leaf = 'id createdAt userId') => {
    let selection = `${list} { ${leaf} }`;
    for (let level = 1; level < levels; level++) selection = `${list} { ledger { ${selection} } }`;
    return `query ($facilityId: UUID!, $ledgerId: UUID!) {
      facility(id: $facilityId) { ledger(id: $ledgerId) { ${selection} } }
    }`;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const facility_id = t.world.facility.id;
    const tenant = buildTenant({ facility_id });
    const unit = buildUnit({ facility_id });
    const ledger = buildLedger({ facility_id, tenant_id: tenant.id, unit_id: unit.id });
    const wordyTenant = buildTenant({ facility_id });
    const wordyUnit = buildUnit({ facility_id });
    const wordy = buildLedger({ facility_id, tenant_id: wordyTenant.id, unit_id: wordyUnit.id });
    await t.load({ tenants: [tenant, wordyTenant], units: [unit, wordyUnit], ledgers: [ledger, wordy] });
    ids.ledger = ledger.id;
    ids.wordyLedger = wordy.id;
    // Written as any client writes them: nothing limits how many a ledger holds.
    const write = (ledgerId: string, noteText: string, userId: string) =>
      ask<{ createNote: { id: string } }>(
        t.app,
        `mutation ($facilityId: UUID!, $input: CreateNoteInput!) { createNote(facilityId: $facilityId, input: $input) { id } }`,
        { input: { ledgerId, noteText, userId } },
      );
    for (let i = 0; i < NOTES; i++) {
      t.clock.advance(1000);
      const res = await write(ledger.id, `Note ${i}`, `u-${i}`);
      expect(res.errors).toBeUndefined();
    }
    for (let i = 0; i < 20; i++) {
      const res = await write(wordy.id, `${i} ${'w'.repeat(9_990)}`, `u-${i}`);
      expect(res.errors).toBeUndefined();
    }
    misdeclared = (
      await buildApp({
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
        store: t.db.store,
        clock: t.clock,
        graphqlResolvers: [...RESOLVERS, MisdeclaredNotesResolver],
      })
    ).app;
    await misdeclared.ready();
  });
  afterAll(async () => {
    await misdeclared?.close();
    await t.close();
  });

  it("answers the probe's two levels (ledger, notes, ledger, notes) within its estimate: 20 of each", async () => {
    const res = await ask(t.app, nested('notes', 2), { ledgerId: ids.ledger }, { cost: true });
    expect(res.errors).toBeUndefined();
    const outer = res.data!.facility.ledger!.notes!;
    expect(outer).toHaveLength(20);
    expect(outer.every((entry) => entry.ledger!.notes!.length === 20)).toBe(true);
    const { estimated } = (res.raw.json() as { extensions: { cost: { estimated: number } } }).extensions.cost;
    // Every note event answered was counted by the estimate (it was 122 for 90,000 of them).
    expect(countNotes(res.data!.facility.ledger)).toBe(20 + 20 * 20);
    expect(estimated).toBeGreaterThanOrEqual(20 + 20 * 20);
  });

  it('answers three levels within the estimate, refuses four with a code, and answers others meanwhile', async () => {
    // 20 + 20 x 20 + 20 x 20 x 20 note events, each counted by the estimate (it was 1,222 for
    // 27,000,000 of them); four levels would be 168,420.
    const three = await ask(t.app, nested('notes', 3), { ledgerId: ids.ledger }, { cost: true });
    expect(three.errors).toBeUndefined();
    expect(countNotes(three.data!.facility.ledger)).toBe(20 + 20 * 20 + 20 * 20 * 20);
    const { estimated } = (three.raw.json() as { extensions: { cost: { estimated: number } } }).extensions
      .cost;
    expect(estimated).toBeGreaterThanOrEqual(20 + 20 * 20 + 20 * 20 * 20);
    expect(estimated).toBeLessThanOrEqual(20_000);

    const four = nested('notes', 4);
    const small = `query ($facilityId: UUID!, $ledgerId: UUID!) {
      facility(id: $facilityId) { ledger(id: $ledgerId) { id notes(first: 2) { id } } }
    }`;
    const [a, b, c, other, health] = await Promise.all([
      ask(t.app, four, { ledgerId: ids.ledger }),
      ask(t.app, four, { ledgerId: ids.ledger }),
      ask(t.app, four, { ledgerId: ids.ledger }),
      ask(t.app, small, { ledgerId: ids.ledger }),
      t.app.inject({ method: 'GET', url: '/healthz' }),
    ]);
    for (const refused of [a, b, c]) {
      expect(refused.status).toBe(400);
      expect(codesOf(refused)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
      expect(refused.data).toBeUndefined();
    }
    expect(other.errors).toBeUndefined();
    expect(other.data!.facility.ledger!.notes).toHaveLength(2);
    expect(health.statusCode).toBe(200);
  });

  it('reads every note through first and offset, oldest first; a bad slice is BAD_USER_INPUT', async () => {
    const page = `query ($facilityId: UUID!, $ledgerId: UUID!, $first: Int, $offset: Int) {
      facility(id: $facilityId) { ledger(id: $ledgerId) { notes(first: $first, offset: $offset) { userId } } }
    }`;
    const seen: string[] = [];
    for (let offset = 0; offset < NOTES + 20; offset += 20) {
      const res = await ask(t.app, page, { ledgerId: ids.ledger, offset });
      expect(res.errors).toBeUndefined();
      seen.push(...res.data!.facility.ledger!.notes!.map((n) => (n as { userId: string }).userId));
    }
    expect(seen).toEqual(Array.from({ length: NOTES }, (_, i) => `u-${i}`));
    // Above 20 reads as 20, as perPage reads above its maximum.
    const many = await ask(t.app, page, { ledgerId: ids.ledger, first: 1000 });
    expect(many.data!.facility.ledger!.notes).toHaveLength(20);
    for (const [variables, parameter] of [
      [{ first: 0 }, 'first'],
      [{ offset: -1 }, 'offset'],
    ] as const) {
      const bad = await ask(t.app, page, { ledgerId: ids.ledger, ...variables });
      expect(bad.status).toBe(200);
      expect(codesOf(bad)).toEqual(['BAD_USER_INPUT']);
      expect(bad.errors![0].extensions.parameter).toBe(parameter);
    }
  });

  it('stops an operation whose list outgrows its declared size, with a code and no partial answer', async () => {
    // Estimated at 5 (one note declared), it would answer 300 x 300 = 90,000 note events.
    const query = nested('everyNote', 2);
    const res = await ask(misdeclared, query, { ledgerId: ids.ledger }, { cost: true });
    expect(codesOf(res)).toEqual(['COST_ACTUAL_TOO_EXPENSIVE']);
    expect(res.data).toBeNull();
    const maximum = executionLimits(20_000).maxObjects;
    expect(res.errors![0].extensions.queryLimit).toEqual({
      name: 'objects',
      maximum,
      actual: expect.any(Number),
    });
    expect(res.errors![0].message).toMatch(/resolved more than 20000 objects/);
    expect(
      (res.raw.json() as { extensions: { cost: { estimated: number } } }).extensions.cost.estimated,
    ).toBe(5);
    // Three levels (27,000,000 note events), three at once: each stopped, and the service keeps
    // answering everyone else.
    const three = nested('everyNote', 3);
    const [a, b, c, other, health] = await Promise.all([
      ask(misdeclared, three, { ledgerId: ids.ledger }),
      ask(misdeclared, three, { ledgerId: ids.ledger }),
      ask(misdeclared, three, { ledgerId: ids.ledger }),
      ask(misdeclared, nested('everyNote', 1, 'id'), { ledgerId: ids.ledger }),
      misdeclared.inject({ method: 'GET', url: '/healthz' }),
    ]);
    for (const stopped of [a, b, c]) expect(codesOf(stopped)).toEqual(['COST_ACTUAL_TOO_EXPENSIVE']);
    expect(other.errors).toBeUndefined();
    expect(other.data!.facility.ledger!.everyNote).toHaveLength(NOTES);
    expect(health.statusCode).toBe(200);
  });

  it('refuses to write a response past the byte limit, and keeps none', async () => {
    // 2,000: the two levels of 20 note events are within the estimate (about 1,640) and its
    // objects, but 400 notes of 10,000 characters are past 1 MiB.
    const strict = (await createInstance(t.db.store, { env: { GRAPHQL_MAX_COST: '2000' } })).app;
    await strict.ready();
    try {
      const query = nested('notes', 2, 'id notes { note }');
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await ask(strict, query, { ledgerId: ids.wordyLedger });
        expect(codesOf(res)).toEqual(['COST_ACTUAL_TOO_EXPENSIVE']);
        expect(res.data).toBeNull();
        expect(res.errors![0].extensions.queryLimit).toEqual({
          name: 'bytes',
          maximum: 1024 * 1024,
          actual: expect.any(Number),
        });
        expect(res.raw.body.length).toBeLessThan(1000);
      }
      // One level is well within.
      const one = await ask(strict, nested('notes', 1, 'id notes { note }'), { ledgerId: ids.wordyLedger });
      expect(one.errors).toBeUndefined();
      expect(one.data!.facility.ledger!.notes).toHaveLength(20);
    } finally {
      await strict.close();
    }
  });
});

describe('the execution guard, on either executor', () => {
  // Every item has 300 children, declared as 2: a cycle whose estimate is wrong.
  const schema = buildSchema(`
    directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
    type Item { id: Int!, children: [Item!]! @listSize(assumedSize: 2), parent: Item }
    type Query { root: Item! }
  `);
  let resolved = 0;
  const item = (id: number): Record<string, unknown> => ({
    id,
    children: () => {
      resolved += 300;
      return Array.from({ length: 300 }, (_, i) => item(id * 300 + i));
    },
    get parent() {
      return { id: -1 };
    },
  });
  guardExecution(schema, { maxObjects: 1_000, maxBytes: 1024 * 1024 });
  const document = parse('{ root { children { parent { id } children { children { id } } } } }');

  const expectStopped = (result: ExecutionResult) => {
    // One error, the list that passed the limit's (graphql-jit's keeps it as its original error).
    const codes = (result.errors ?? []).map(
      (error) => (error.originalError as GraphQLError | undefined)?.extensions.code ?? error.extensions?.code,
    );
    expect(codes).toEqual(['COST_ACTUAL_TOO_EXPENSIVE']);
    // Stopped once past the limit: the lists after it never ran (300 x 300 x 300 otherwise).
    expect(resolved).toBeLessThan(2_000);
  };

  it('stops graphql-js once past the limit', async () => {
    resolved = 0;
    expectStopped(await execute({ schema, document, rootValue: { root: item(0) }, contextValue: {} }));
  });

  it("answers a subscription's stopped event with the guard's error alone", async () => {
    resolved = 0;
    const result = await execute({ schema, document, rootValue: { root: item(0) }, contextValue: {} });
    const sent = formattedResult(result as { data?: unknown; errors?: readonly GraphQLError[] });
    expect(sent.data).toBeNull();
    expect(sent.errors!.map((error) => error.extensions?.code)).toEqual(['COST_ACTUAL_TOO_EXPENSIVE']);
  });

  it('stops graphql-jit once past the limit', async () => {
    resolved = 0;
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('not compiled');
    expectStopped((await compiled.query({ root: item(0) }, {}, {})) as ExecutionResult);
  });
});
