import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { graphqlSchema } from '../../src/modules';
import { VISA } from '../support/payments';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { loadRichWorld, rowCounts, type RichWorld } from '../support/rich-world';

/**
 * The GraphQL endpoint under the same sweep as /v1: every mutation of the schema (so a new one is
 * swept without editing this file), each input field given hostile values, plus malformed requests.
 * No answer is a 5xx or an INTERNAL_SERVER_ERROR, every answer is GraphQL's shape, and a refused
 * mutation writes nothing.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Sent {
  label: string;
  /** The JSON text posted to /graphql. */
  payload: string;
}

const VALUES: Array<[string, Json]> = [
  ['NUL', 'a\u0000b'],
  ['a huge number', 1e308],
  ['a huge integer', 2 ** 80],
  ['a negative number', -1],
  ['a fraction', 1.5],
  ['true', true],
  ['null', null],
  ['empty', ''],
  ['an empty list', []],
  ['an object', { a: 1 }],
  ['100,000 characters', 'x'.repeat(100_000)],
  ['an emoji', '🏬'],
  ['a NUL key', { 'a\u0000': 1 }],
];

/** Values for names that must name real records of the rich world, or follow a rule. */
function knownValues(t: TestApp, w: RichWorld): Record<string, Json> {
  return {
    facilityId: t.world.facility.id,
    companyId: t.world.company.id,
    tenantId: w.tenantId,
    unitId: w.unitId,
    ledgerId: w.ledgerId,
    eventId: w.eventId,
    invoiceableItemId: w.retailItemId,
    noteText: 'Gate code changed',
    email: 'ada@example.com',
    cardNumber: VISA,
    securityCode: '123',
    expirationDate: '12/39',
    quantity: 1,
    url: 'https://hooks.example.com/sweep',
    eventTypes: ['note.created'],
  };
}

/** Whether a good request gives this field: when it is required, or has a known good value. */
function given(name: string, type: GraphQLInputType, t: TestApp, w: RichWorld): boolean {
  return type.toString().endsWith('!') || name in knownValues(t, w);
}

/** A value of the type that names real records of the rich world where the name says so. */
function goodValue(name: string, type: GraphQLInputType, t: TestApp, w: RichWorld): Json {
  const known = knownValues(t, w);
  if (name in known) return known[name];
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [goodValue(name, nullable.ofType as GraphQLInputType, t, w)];
  if (isInputObjectType(nullable)) {
    const fields = Object.values(nullable.getFields()).filter((f) => given(f.name, f.type, t, w));
    return Object.fromEntries(fields.map((f) => [f.name, goodValue(f.name, f.type, t, w)]));
  }
  if (isEnumType(nullable)) return nullable.getValues()[0].name;
  if (isScalarType(nullable) && nullable.name === 'Int') return 1;
  if (isScalarType(nullable) && nullable.name === 'Boolean') return false;
  return 'x';
}

/** The variable paths a mutation's arguments hold, input object fields included (lists: their first entry). */
function argumentPaths(args: readonly GraphQLArgument[]): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [];
  const walk = (type: GraphQLInputType, path: Array<string | number>, seen: Set<string>) => {
    paths.push(path);
    const named = getNamedType(type);
    const nullable = getNullableType(type);
    if (isListType(nullable)) walk(nullable.ofType as GraphQLInputType, [...path, 0], seen);
    else if (isInputObjectType(named) && !seen.has(named.name)) {
      for (const field of Object.values(named.getFields())) {
        walk(field.type, [...path, field.name], new Set([...seen, named.name]));
      }
    }
  };
  for (const arg of args) walk(arg.type, [arg.name], new Set());
  return paths;
}

function setAt(root: Record<string, Json>, path: Array<string | number>, value: Json): Record<string, Json> {
  const copy = JSON.parse(JSON.stringify(root)) as Record<string, Json>;
  let at = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = typeof key === 'number' ? [] : {};
    at = at[key] as Record<string | number, Json>;
  }
  at[path[path.length - 1]] = value;
  return copy;
}

describeEachDialect('a hostile sweep over the GraphQL endpoint', (dialect) => {
  let t: TestApp;
  let w: RichWorld;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    w = await loadRichWorld(t);
  }, 60_000);
  afterAll(() => t.close());

  async function sweep(cases: Sent[]): Promise<string[]> {
    const failures: string[] = [];
    let counts = await rowCounts(t);
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: {
          authorization: `Bearer ${t.world.client.bearer_token}`,
          'content-type': 'application/json',
        },
        payload: c.payload,
      });
      let body: { data?: unknown; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> } =
        {};
      try {
        body = res.json();
      } catch {
        failures.push(`${c.label}: answered ${res.statusCode} with a body that is not JSON`);
      }
      if (res.statusCode >= 500)
        failures.push(`${c.label}: answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      if (body.data === undefined && !Array.isArray(body.errors))
        failures.push(`${c.label}: neither data nor errors`);
      for (const error of body.errors ?? []) {
        if (typeof error.message !== 'string' || typeof error.extensions?.code !== 'string') {
          failures.push(`${c.label}: an error without a message or code`);
        } else if (error.extensions.code === 'INTERNAL_SERVER_ERROR') {
          failures.push(`${c.label}: INTERNAL_SERVER_ERROR`);
        }
      }
      const after = await rowCounts(t);
      if (body.errors) {
        const changed = Object.keys(after).filter((table) => after[table] !== counts[table]);
        if (changed.length > 0) failures.push(`${c.label}: refused but wrote to ${changed.join(', ')}`);
      }
      counts = after;
    }
    return failures;
  }

  it('gives every input field of every mutation hostile values: clear errors, nothing written', async () => {
    const mutations = Object.values(graphqlSchema().getMutationType()!.getFields());
    expect(mutations.map((m) => m.name)).toEqual(
      expect.arrayContaining(['createNote', 'payRetail', 'reviewMoveInCost', 'sendEsignableDocuments']),
    );
    const cases: Sent[] = [];
    for (const mutation of mutations) {
      const declarations = mutation.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const passing = mutation.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const query = `mutation Sweep(${declarations}) { ${mutation.name}(${passing}) { __typename } }`;
      const good = Object.fromEntries(
        mutation.args
          .filter((a) => given(a.name, a.type, t, w))
          .map((a) => [a.name, goodValue(a.name, a.type, t, w)]),
      );
      if (mutation.name === 'payRetail') {
        good.input = {
          invoiceableItems: [{ invoiceableItemId: w.retailItemId, quantity: 1 }],
          paymentMethod: {
            firstName: 'Ada',
            lastName: 'Lovelace',
            kind: 'CREDIT_CARD',
            cardNumber: VISA,
            cardType: 'VISA',
            securityCode: '123',
            expirationDate: '12/39',
            billingAddress: { postal: '62701' },
          },
        };
      }
      if (mutation.name === 'revokeEsignLink') {
        // A signing link of the facility to withdraw, queued as staff would.
        const caller = { clientId: t.world.client.id, companyId: t.world.company.id, name: 'sweep' };
        const facility = await t.services.facilities.facilityFor(caller, t.world.facility.id);
        const [message] = await t.services.esign.sendEsignableDocuments(facility, {
          eventId: w.eventId,
          email: 'ada@example.com',
        });
        good.messageId = message.id;
      }
      if (
        ['disableWebhookEndpoint', 'enableWebhookEndpoint', 'rotateWebhookSecret'].includes(mutation.name)
      ) {
        const { endpoint } = await t.services.webhooks.createEndpoint(t.world.company.id, {
          url: 'https://hooks.example.com/sweep',
          eventTypes: ['note.created'],
        });
        good.id = endpoint.id;
      }
      if (mutation.name === 'replayWebhookMessage') {
        // A delivery of the company's: a note reported to an endpoint.
        const caller = { clientId: t.world.client.id, companyId: t.world.company.id, name: 'sweep' };
        const facility = await t.services.facilities.facilityFor(caller, t.world.facility.id);
        await t.services.webhooks.createEndpoint(t.world.company.id, {
          url: 'https://hooks.example.com/replayed',
          eventTypes: ['note.created'],
        });
        await t.services.notes.createNote(facility, caller, { noteText: 'Reported', unitId: w.unitId });
        const delivery = await t.db.store.db
          .selectFrom('outbox_messages')
          .select('id')
          .where('channel', '=', 'webhook')
          .executeTakeFirstOrThrow();
        good.id = delivery.id;
      }
      // The unaltered request succeeds, so each case below is refused for its one altered value.
      const base = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: {
          authorization: `Bearer ${t.world.client.bearer_token}`,
          'content-type': 'application/json',
        },
        payload: { query, operationName: 'Sweep', variables: good },
      });
      expect({ mutation: mutation.name, errors: base.json().errors }).toEqual({
        mutation: mutation.name,
        errors: undefined,
      });
      for (const path of argumentPaths(mutation.args)) {
        for (const [label, value] of VALUES) {
          cases.push({
            label: `${mutation.name} ${path.join('.')} ${label}`,
            payload: JSON.stringify({ query, operationName: 'Sweep', variables: setAt(good, path, value) }),
          });
        }
      }
      const deepVariables = `{"query":${JSON.stringify(query)},"variables":{"deep":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
      cases.push({ label: `${mutation.name} with variables nested 5,000 levels`, payload: deepVariables });
    }
    expect(await sweep(cases)).toEqual([]);
  }, 600_000);

  it('answers malformed requests and literals with GraphQL errors', async () => {
    const facility = t.world.facility.id;
    const cases: Sent[] = [
      {
        label: 'a NUL string literal',
        payload: JSON.stringify({ query: `{ facility(id: "${facility}") { flipper(name: "a\\u0000b") } }` }),
      },
      {
        label: 'a NUL note literal',
        payload: JSON.stringify({
          query: `mutation { createNote(facilityId: "${facility}", input: { noteText: "a\\u0000b", tenantId: "${w.tenantId}" }) { id } }`,
        }),
      },
      { label: 'a raw NUL in the query', payload: JSON.stringify({ query: '{ __typename \u0000 }' }) },
      {
        label: 'a NUL operation name',
        payload: JSON.stringify({ query: '{ __typename }', operationName: 'a\u0000' }),
      },
      { label: 'variables as a list', payload: JSON.stringify({ query: '{ __typename }', variables: [1] }) },
      {
        label: 'variables as a string',
        payload: JSON.stringify({ query: '{ __typename }', variables: 'x' }),
      },
      { label: 'a query that is a number', payload: JSON.stringify({ query: 42 }) },
      { label: 'no query', payload: '{}' },
      { label: 'a JSON list', payload: '[]' },
      { label: 'malformed JSON', payload: '{"query":' },
      {
        label: 'a huge Int literal',
        payload: JSON.stringify({
          query: `{ company { rateChangeUpdates(updatedAfter: "2026-01-01T00:00:00Z", updatedBefore: "2026-02-01T00:00:00Z", page: 99999999999999999999) { entries { id } } } }`,
        }),
      },
      {
        label: 'nesting 5,000 levels at the top',
        payload: `{"query":"{ __typename }","extensions":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
      },
    ];
    expect(await sweep(cases)).toEqual([]);
    expect((await t.get(`/v1/${facility}/flippers`)).statusCode).toBe(200);
  }, 600_000);
});
