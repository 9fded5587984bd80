import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { execute, parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices as composeWithApollo } from '@apollo/composition';
import { composeServices } from '@theguild/federation-composition';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { subgraphSdl, FEDERATION_SPEC } from '../../src/graphql/federation';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../../src/graphql/limits';
import { MAX_TOKENS } from '../../src/graphql/server';
import { checkManifest, documentIdOf } from '../../src/graphql/trusted-documents';
import { ENTITIES, graphqlSchema, subgraphGraphqlSchema } from '../../src/modules';
import { SqlTrustedDocumentsRepository } from '../../src/store/repositories/trusted-documents.repository';
import {
  buildDocument,
  buildEvent,
  buildItem,
  buildLedger,
  buildRateAppliedAction,
  buildRateChange,
  buildTenant,
  buildUnit,
} from '../support/factories';
import { listenOnLoopback, startGateway } from '../support/gateway';
import { describeEachDialect } from '../support/harness';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import { codesOf, postGraphql } from './graphql-client';

const ENTITIES_QUERY = `query Entities($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on Facility { id name }
    ... on Company { id name }
    ... on Tenant { id name facility { id } }
    ... on Unit { id name }
    ... on Ledger { id tenantId facility { id name } unit { name } }
    ... on Event { id type facility { id } }
    ... on Document { id description event { id } }
    ... on NoteEvent { id notes { note } tenant { id } }
    ... on FeeItem { id kind description }
    ... on RetailItem { id kind description }
    ... on RateChangeUpdate { id newRate tenant { id } }
    ... on RateAppliedAction { id source newLedger { id } }
  }
}`;

type Entity = Record<string, unknown> | null;

/** Each statement's table (`select ... from "tenants"`), for counting statements per kind of record. */
const tables = (statements: string[]) =>
  statements.map((s) => /\b(?:from|update)\s+"?(\w+)"?/i.exec(s)?.[1] ?? s);

describeEachDialect('a Federation v2 subgraph (GRAPHQL_FEDERATION=on)', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let strict: FastifyInstance;
  let required: FastifyInstance;
  const tenants = [] as ReturnType<typeof buildTenant>[];
  const ledgers = [] as ReturnType<typeof buildLedger>[];
  let unit: ReturnType<typeof buildUnit>;
  let otherTenant: ReturnType<typeof buildTenant>;
  let event: ReturnType<typeof buildEvent>;
  let document: ReturnType<typeof buildDocument>;
  let fee: ReturnType<typeof buildItem>;
  let rateChange: ReturnType<typeof buildRateChange>;
  let action: ReturnType<typeof buildRateAppliedAction>;
  let noteEventId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { facility, otherFacility, client } = t.world;
    unit = buildUnit({ facility_id: facility.id, name: 'B-7' });
    for (let i = 0; i < 100; i++) {
      const tenant = buildTenant({ facility_id: facility.id, last_name: `Tenant ${i}` });
      tenants.push(tenant);
      ledgers.push(buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: unit.id }));
    }
    otherTenant = buildTenant({ facility_id: otherFacility.id, last_name: 'Elsewhere' });
    event = buildEvent({ facility_id: facility.id, ledger_id: ledgers[0].id });
    document = buildDocument({ event_id: event.id, description: 'Lease' });
    fee = buildItem({ facility_id: facility.id, kind: 'fee', description: 'Admin fee' });
    rateChange = buildRateChange({ facility_id: facility.id, tenant_id: tenants[1].id, unit_id: unit.id });
    action = buildRateAppliedAction({
      facility_id: facility.id,
      new_ledger_id: ledgers[1].id,
      unit_id: unit.id,
    });
    await t.load({
      tenants: [...tenants, otherTenant],
      units: [unit],
      ledgers,
      events: [event],
      event_documents: [document],
      invoiceable_items: [fee],
      rate_changes: [rateChange],
      rate_applied_actions: [action],
    });
    noteEventId = randomUUID();
    await t.db.store.db
      .insertInto('note_events')
      .values({
        id: noteEventId,
        facility_id: facility.id,
        tenant_id: tenants[0].id,
        unit_id: null,
        ledger_id: null,
        user_id: null,
        created_by_client_id: client.id,
        created_at: '2026-11-01T10:00:00.000Z',
      })
      .execute();
    await t.db.store.db
      .insertInto('notes')
      .values({
        id: randomUUID(),
        note_event_id: noteEventId,
        note: 'Gate code changed',
        created_at: '2026-11-01T10:00:00.000Z',
      })
      .execute();
    const env = { GRAPHQL_FEDERATION: 'on' };
    app = (await createInstance(t.db.store, { env })).app;
    strict = (await createInstance(t.db.store, { env: { ...env, GRAPHQL_MAX_COST: '150' } })).app;
    required = (await createInstance(t.db.store, { env: { ...env, TRUSTED_DOCUMENTS: 'require' } })).app;
    await Promise.all([app.ready(), strict.ready(), required.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app.close(), strict.close(), required.close()]);
    await t.close();
  });

  const entities = (
    target: FastifyInstance,
    representations: unknown[],
    options: { bearer?: string; extensions?: unknown } = {},
  ) =>
    postGraphql<{ _entities: Entity[] }>(
      target,
      { query: ENTITIES_QUERY, variables: { representations }, extensions: options.extensions },
      { bearer: options.bearer ?? t.world.client.bearer_token },
    );

  it('serves its SDL with every directive: @link to Federation 2.9, @key, @cost and @listSize', async () => {
    const res = await postGraphql<{ _service: { sdl: string } }>(
      app,
      { query: '{ _service { sdl } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.errors).toBeUndefined();
    const sdl = res.data!._service.sdl;
    expect(sdl).toBe(subgraphSdl(graphqlSchema(), ENTITIES));
    expect(sdl).toContain(`@link(url: "${FEDERATION_SPEC}", import: ["@key", "@cost", "@listSize"])`);
    for (const type of [
      'Facility',
      'Company',
      'Tenant',
      'Unit',
      'Ledger',
      'Event',
      'Document',
      'NoteEvent',
      'RateChangeUpdate',
      'RateAppliedAction',
    ])
      expect(sdl).toMatch(new RegExp(`\\ntype ${type} @key\\(fields: "id"\\) \\{`));
    expect(sdl).toMatch(/\ninterface InvoiceableItem @key\(fields: "id"\) \{/);
    expect(sdl).toMatch(/\ntype FeeItem implements InvoiceableItem @key\(fields: "id"\) \{/);
    // Federation's @cost takes an Int; our own directive definitions give way to Federation's.
    expect(sdl).toContain('@cost(weight: 0)');
    expect(sdl).toContain('@listSize(assumedSize: 100, slicingArguments: ["perPage"]');
    expect(sdl).not.toContain('directive @cost');
    // What schema.subgraph.graphql holds (npm run check:generated keeps it fresh).
    const committed = fs.readFileSync(path.join(__dirname, '../../schema.subgraph.graphql'), 'utf8');
    expect(committed.endsWith(sdl)).toBe(true);
  });

  it('is a subgraph @apollo/subgraph builds', () => {
    expect(() =>
      buildSubgraphSchema([{ typeDefs: parse(subgraphSdl(graphqlSchema(), ENTITIES)) }]),
    ).not.toThrow();
  });

  it('resolves every kind of entity, and its links, as a query by id does', async () => {
    const { facility, company } = t.world;
    const res = await entities(app, [
      { __typename: 'Facility', id: facility.id },
      { __typename: 'Company', id: company.id },
      { __typename: 'Tenant', id: tenants[3].id },
      { __typename: 'Unit', id: unit.id },
      { __typename: 'Ledger', id: ledgers[0].id },
      { __typename: 'Event', id: event.id },
      { __typename: 'Document', id: document.id },
      { __typename: 'NoteEvent', id: noteEventId },
      { __typename: 'FeeItem', id: fee.id },
      { __typename: 'InvoiceableItem', id: fee.id },
      // Asked as the wrong one of the interface's types, an item is not found.
      { __typename: 'RetailItem', id: fee.id },
      { __typename: 'RateChangeUpdate', id: rateChange.id },
      // An id in capitals finds the same record, as everywhere.
      { __typename: 'RateAppliedAction', id: action.id.toUpperCase() },
    ]);
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities).toEqual([
      { __typename: 'Facility', id: facility.id, name: facility.name },
      { __typename: 'Company', id: company.id, name: company.name },
      { __typename: 'Tenant', id: tenants[3].id, name: 'Ada Tenant 3', facility: { id: facility.id } },
      { __typename: 'Unit', id: unit.id, name: 'B-7' },
      {
        __typename: 'Ledger',
        id: ledgers[0].id,
        tenantId: tenants[0].id,
        facility: { id: facility.id, name: facility.name },
        unit: { name: 'B-7' },
      },
      { __typename: 'Event', id: event.id, type: 'MOVE_IN_UNIT_EVENT', facility: { id: facility.id } },
      { __typename: 'Document', id: document.id, description: 'Lease', event: { id: event.id } },
      {
        __typename: 'NoteEvent',
        id: noteEventId,
        notes: [{ note: 'Gate code changed' }],
        tenant: { id: tenants[0].id },
      },
      { __typename: 'FeeItem', id: fee.id, kind: 'FEE', description: 'Admin fee' },
      { __typename: 'FeeItem', id: fee.id, kind: 'FEE', description: 'Admin fee' },
      null,
      { __typename: 'RateChangeUpdate', id: rateChange.id, newRate: 99, tenant: { id: tenants[1].id } },
      { __typename: 'RateAppliedAction', id: action.id, source: 'Kiosk', newLedger: { id: ledgers[1].id } },
    ]);
  });

  it("answers null for another company's records and unknown ids, never their data", async () => {
    const { otherFacility, otherCompany } = t.world;
    const res = await entities(app, [
      { __typename: 'Facility', id: otherFacility.id },
      { __typename: 'Company', id: otherCompany.id },
      { __typename: 'Tenant', id: otherTenant.id },
      { __typename: 'Ledger', id: randomUUID() },
      { __typename: 'Tenant', id: 'not-a-uuid' },
    ]);
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities).toEqual([null, null, null, null, null]);
    // The other company's client sees its own records, and not ours.
    const theirs = await entities(
      app,
      [
        { __typename: 'Tenant', id: otherTenant.id },
        { __typename: 'Tenant', id: tenants[0].id },
      ],
      { bearer: t.world.otherClient.bearer_token! },
    );
    expect(theirs.data!._entities).toEqual([
      {
        __typename: 'Tenant',
        id: otherTenant.id,
        name: 'Ada Elsewhere',
        facility: { id: t.world.otherFacility.id },
      },
      null,
    ]);
  });

  it('refuses a representation that is no entity of ours, and asks for credentials as /graphql does', async () => {
    const res = await entities(app, [{ __typename: 'Weather', id: randomUUID() }]);
    expect(res.data!._entities).toEqual([null]);
    expect(res.errors![0].message).toBe('Weather is not an entity of this subgraph');
    const anonymous = await postGraphql(app, {
      query: ENTITIES_QUERY,
      variables: { representations: [{ __typename: 'Facility', id: t.world.facility.id }] },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.data ?? null).toBeNull();
  });

  it('reads 100 tenants and 100 ledgers in one statement per kind of record', async () => {
    t.db.queries.length = 0;
    const res = await entities(app, [
      ...tenants.map((tenant) => ({ __typename: 'Tenant', id: tenant.id })),
      ...ledgers.map((ledger) => ({ __typename: 'Ledger', id: ledger.id })),
    ]);
    expect(res.errors).toBeUndefined();
    const found = res.data!._entities;
    expect(found).toHaveLength(200);
    expect(found.slice(0, 100).map((tenant) => tenant!.id)).toEqual(tenants.map((tenant) => tenant.id));
    expect(found.slice(100).map((ledger) => (ledger!.unit as { name: string }).name)).toEqual(
      ledgers.map(() => 'B-7'),
    );
    const read = tables([...t.db.queries]);
    const count = (table: string) => read.filter((name) => name === table).length;
    expect(count('tenants')).toBe(1);
    expect(count('ledgers')).toBe(1);
    expect(count('units')).toBe(1);
    // Checking their facilities: at most one statement (the facility is kept a few seconds).
    expect(count('facilities')).toBeLessThanOrEqual(1);
  });

  it('sizes the representation list by its length in the cost estimate, and refuses past the limit', async () => {
    const reps = (n: number) =>
      tenants.slice(0, n).map((tenant) => ({ __typename: 'Tenant', id: tenant.id }));
    const estimate = async (n: number) => {
      const res = await entities(app, reps(n), { extensions: { cost: true } });
      expect(res.errors).toBeUndefined();
      return (res.raw.json() as { extensions: { cost: { estimated: number } } }).extensions.cost.estimated;
    };
    // Each tenant counts 1, and its facility 1: only the Tenant fragment applies to it.
    expect(await estimate(10)).toBe(20);
    expect(await estimate(50)).toBe(100);
    const within = await entities(strict, reps(75));
    expect(within.errors).toBeUndefined();
    const refused = await entities(strict, reps(76));
    expect(refused.status).toBe(400);
    expect(codesOf(refused)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(refused.errors![0].extensions).toMatchObject({ cost: { estimated: 152, maximum: 150 } });
  });

  it("answers `_entities` in TRUSTED_DOCUMENTS=require only as one of the client's documents", async () => {
    const variables = { representations: [{ __typename: 'Facility', id: t.world.facility.id }] };
    const id = documentIdOf(ENTITIES_QUERY);
    // `documents load` checks a manifest against the subgraph's schema when federation is on.
    const manifest = JSON.stringify({ [`sha256:${id}`]: ENTITIES_QUERY });
    const options = { maxTokens: MAX_TOKENS, now: new Date().toISOString() };
    const rules = [queryLimitsRule(DEFAULT_QUERY_LIMITS)];
    expect(checkManifest(manifest, graphqlSchema(), rules, options).problems.join('\n')).toMatch(
      /Unknown type "_Any"/,
    );
    const check = checkManifest(manifest, subgraphGraphqlSchema(), rules, options);
    expect(check.problems).toEqual([]);
    await new SqlTrustedDocumentsRepository(t.db.store.db).add(t.world.client.id, check.documents);
    const trusted = await postGraphql<{ _entities: Entity[] }>(
      required,
      { documentId: `sha256:${id}`, variables },
      { bearer: t.world.client.bearer_token },
    );
    expect(trusted.errors).toBeUndefined();
    expect(trusted.data!._entities).toEqual([
      { __typename: 'Facility', id: t.world.facility.id, name: t.world.facility.name },
    ]);
    // A router's free text is refused like any other, however it asks for entities.
    const free = await postGraphql(
      required,
      { query: ENTITIES_QUERY.replace('__typename', '__typename id: __typename'), variables },
      { bearer: t.world.client.bearer_token },
    );
    expect(free.status).toBe(400);
    expect(codesOf(free)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('serves no subgraph fields when GRAPHQL_FEDERATION is off (the default)', async () => {
    const res = await postGraphql(
      t.app,
      { query: '{ _service { sdl } }' },
      { bearer: t.world.client.bearer_token },
    );
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

/** A second subgraph that extends Facility with its weather, and names facilities in its own records. */
const WEATHER_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])
  scalar UUID
  type Facility @key(fields: "id") {
    id: UUID!
    weather: String!
  }
  type Forecast {
    summary: String!
    facility: Facility!
  }
  type Query {
    forecasts(facilityIds: [UUID!]!): [Forecast!]!
  }
`;

/** Serves a schema over HTTP on loopback (POST JSON), graphql-js executing it. */
async function serveWeather(): Promise<{
  url: string;
  close: () => Promise<void>;
  authorizations: string[];
}> {
  const authorizations: string[] = [];
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(WEATHER_SDL),
      resolvers: {
        Facility: {
          __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
          weather: (facility: { id: string }) => `Sunny at ${facility.id.slice(0, 8)}`,
        },
        Query: {
          forecasts: (_root: unknown, { facilityIds }: { facilityIds: string[] }) =>
            facilityIds.map((id) => ({ summary: 'Dry week', facility: { id } })),
        },
      } as never,
    },
  ]);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      authorizations.push(String(request.headers.authorization ?? ''));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        query: string;
        variables?: Record<string, unknown>;
      };
      void Promise.resolve(
        execute({ schema, document: parse(body.query), variableValues: body.variables }),
      ).then((result) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(result));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    authorizations,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('composed with a second subgraph and served by Hive Gateway', () => {
  let t: TestApp;
  let ours: FastifyInstance;
  let weather: Awaited<ReturnType<typeof serveWeather>>;
  let gateway: ReturnType<typeof createGatewayRuntime>;
  let gatewayServer: http.Server;
  let gatewayUrl: string;
  let composition: ReturnType<typeof composeServices>;
  let oursBase: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    ours = (await createInstance(t.db.store, { env: { GRAPHQL_FEDERATION: 'on' } })).app;
    oursBase = await listenOnLoopback(ours);
    const oursUrl = `${oursBase}/graphql`;
    weather = await serveWeather();
    composition = composeServices([
      { name: 'facility-ops', typeDefs: parse(subgraphSdl(graphqlSchema(), ENTITIES)), url: oursUrl },
      { name: 'weather', typeDefs: parse(WEATHER_SDL), url: weather.url },
    ]);
    expect(composition.errors ?? []).toEqual([]);
    gateway = createGatewayRuntime({
      supergraph: composition.supergraphSdl!,
      logging: false,
      // The caller's credentials go to every subgraph: each answers as that caller.
      propagateHeaders: {
        fromClientToSubgraphs: ({ request }) => ({
          authorization: request.headers.get('authorization') ?? '',
        }),
      },
    });
    gatewayServer = http.createServer(gateway);
    await new Promise<void>((resolve) => gatewayServer.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gatewayServer.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    // Keep-alive connections of the test's fetches would hold the server open.
    gatewayServer?.closeAllConnections();
    await new Promise<void>((resolve) => gatewayServer?.close(() => resolve()));
    await gateway?.dispose();
    await weather?.close();
    await ours?.close();
    await t?.close();
  });

  const ask = async (query: string, variables: Record<string, unknown>, bearer: string) => {
    const response = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  };

  it("composes free of errors, and of hints with Apollo's composition too", () => {
    expect(composition.errors ?? []).toEqual([]);
    const apollo = composeWithApollo([
      {
        name: 'facility-ops',
        typeDefs: parse(subgraphSdl(graphqlSchema(), ENTITIES)),
        url: 'http://127.0.0.1/',
      },
      { name: 'weather', typeDefs: parse(WEATHER_SDL), url: 'http://127.0.0.1/' },
    ]);
    expect(apollo.errors ?? []).toEqual([]);
    expect((apollo.hints ?? []).map((hint) => `${hint.definition.code}: ${hint.message}`)).toEqual([]);
  });

  it('joins our facility with its weather, and their forecasts with our facility, through _entities', async () => {
    const { facility, client } = t.world;
    const weatherSeen = weather.authorizations.length;
    const joined = await ask(
      'query ($id: UUID!) { facility(id: $id) { name timeZone weather } }',
      { id: facility.id },
      client.bearer_token!,
    );
    expect(joined).toEqual({
      data: {
        facility: {
          name: facility.name,
          timeZone: facility.time_zone,
          weather: `Sunny at ${facility.id.slice(0, 8)}`,
        },
      },
    });
    // The router forwarded the caller's Authorization to the other subgraph too.
    expect(weather.authorizations.slice(weatherSeen)).toContain(`Bearer ${client.bearer_token}`);

    const forecasts = await ask(
      'query ($ids: [UUID!]!) { forecasts(facilityIds: $ids) { summary facility { id name } } }',
      { ids: [facility.id] },
      client.bearer_token!,
    );
    expect(forecasts).toEqual({
      data: { forecasts: [{ summary: 'Dry week', facility: { id: facility.id, name: facility.name } }] },
    });
    // Another company's facility is null to this caller: the router reports that place, and no
    // data of theirs reaches the answer.
    const theirs = await ask(
      'query ($ids: [UUID!]!) { forecasts(facilityIds: $ids) { summary facility { id name } } }',
      { ids: [facility.id, t.world.otherFacility.id] },
      client.bearer_token!,
    );
    expect(JSON.stringify(theirs)).not.toContain(t.world.otherFacility.name);
    expect((theirs.errors as Array<{ path: unknown[] }>).map((error) => error.path.slice(0, 2))).toEqual([
      ['forecasts', 1],
    ]);
  });

  it('serves no subgraph in gateway mode, whatever GRAPHQL_FEDERATION says', async () => {
    const front = await startGateway('sqlite', oursBase, t.world, { GRAPHQL_FEDERATION: 'on' });
    try {
      const bearer = t.world.client.bearer_token!;
      const service = await postGraphql(front.app, { query: '{ _service { sdl } }' }, { bearer });
      expect(codesOf(service)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      // The part of the graph the contract feeds (no facility name there: no /v1 route reads it).
      const facility = await postGraphql<{ facility: { id: string } }>(
        front.app,
        { query: 'query ($id: UUID!) { facility(id: $id) { id } }', variables: { id: t.world.facility.id } },
        { bearer },
      );
      expect(facility.errors).toBeUndefined();
      expect(facility.data?.facility.id).toBe(t.world.facility.id);
    } finally {
      await front.close();
    }
  });
});
