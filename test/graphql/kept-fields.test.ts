import 'reflect-metadata';
import { parse } from 'graphql';
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Facility } from '../../src/areas/facilities/facilities.types';
import type { GraphqlContext } from '../../src/graphql/context';
import { FacilityObject } from '../../src/areas/facilities/facilities.graphql';
import { Kept } from '../../src/graphql/kept';
import { KEPT_LISTS, RESOLVERS } from '../../src/modules';
import { buildGraphqlSchema } from '../../src/graphql/schema';
import { keepableQuery } from '../../src/graphql/response-cache';
import { describeEachDialect } from '../support/harness';
import { createTestApp, type TestApp } from '../support/http';
import { postGraphql } from './graphql-client';

/** A field added to Facility that reads data through a resolver of its own, declaring no scope. */
let visits = 0;
@Resolver(() => FacilityObject)
class UndeclaredReadResolver {
  @FieldResolver(() => Int)
  visits(@Root() _facility: Facility, @Ctx() _ctx: GraphqlContext): number {
    visits += 1;
    return visits;
  }
}

/** The same read, declared under the flippers' scope. */
@Resolver(() => FacilityObject)
class DeclaredReadResolver {
  @FieldResolver(() => Int)
  @Kept(KEPT_LISTS.flippers)
  declaredVisits(@Root() _facility: Facility, @Ctx() _ctx: GraphqlContext): number {
    visits += 1;
    return visits;
  }
}

const resolvers = [...RESOLVERS, UndeclaredReadResolver, DeclaredReadResolver];
const schema = buildGraphqlSchema(resolvers);

describe('which queries may be kept', () => {
  it.each([
    ['declared fields and their plain properties', '{ facility(id: "x") { id name flippers } }', true],
    [
      'a field reading through a resolver of its own without a scope',
      '{ facility(id: "x") { id visits } }',
      false,
    ],
    ['the same read declared with @Kept', '{ facility(id: "x") { id declaredVisits } }', true],
    ['navigation to another record', '{ facility(id: "x") { company { id } } }', false],
    ['a mutation', 'mutation { createNote(facilityId: "x", input: { noteText: "a" }) { id } }', false],
  ])('%s: %s', (_label, query, keepable) => {
    expect(keepableQuery(schema, parse(query), null)).toBe(keepable);
  });
});

describeEachDialect('a field that reads data without a declared scope', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('makes its response run every time, while the same query without it is kept', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const { app } = await buildApp({
      config,
      store: t.db.store,
      clock: t.clock,
      graphqlResolvers: resolvers,
    });
    try {
      const ask = (fields: string) =>
        postGraphql<{ facility: { visits?: number; declaredVisits?: number } }>(
          app,
          {
            query: `query ($id: UUID!) { facility(id: $id) { id flippers ${fields} } }`,
            variables: { id: t.world.facility.id },
          },
          { bearer: t.world.client.bearer_token },
        );
      const first = await ask('visits');
      const second = await ask('visits');
      expect(second.data!.facility.visits).toBe(first.data!.facility.visits! + 1);

      const declaredFirst = await ask('declaredVisits');
      const declaredSecond = await ask('declaredVisits');
      expect(declaredSecond.raw.body).toBe(declaredFirst.raw.body);
    } finally {
      await app.close();
    }
  });
});
