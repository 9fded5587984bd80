import type { App } from '../../src/app';
import { graphqlSchema } from '../../src/modules';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../../src/graphql/limits';
import { MAX_TOKENS } from '../../src/graphql/server';
import { checkManifest, documentIdOf } from '../../src/graphql/trusted-documents';
import { SqlTrustedDocumentsRepository } from '../../src/store/repositories/trusted-documents.repository';
import { listenOnLoopback } from '../support/gateway';
import { createInstance, createTestApp, type TestApp } from '../support/http';
import {
  ACTIVITY,
  bearer,
  codesOf,
  loadShop,
  payOverRest,
  paymentIds,
  subscribeWs,
  until,
  wsClient,
} from './live-support';

describe('subscriptions under TRUSTED_DOCUMENTS=require', () => {
  let t: TestApp;
  let required: App;
  let base: string;
  let shop: Awaited<ReturnType<typeof loadShop>>;
  const stray =
    'subscription Stray($facilityId: UUID!) { facilityActivity(facilityId: $facilityId) { __typename } }';

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    shop = await loadShop(t, t.world.facility.id);
    const check = checkManifest(
      JSON.stringify({ [documentIdOf(ACTIVITY)]: ACTIVITY }),
      graphqlSchema(),
      [queryLimitsRule(DEFAULT_QUERY_LIMITS)],
      { maxTokens: MAX_TOKENS, now: new Date().toISOString() },
    );
    expect(check.problems).toEqual([]);
    await new SqlTrustedDocumentsRepository(t.db.store.db).add(t.world.client.id, check.documents);
    required = await createInstance(t.db.store, { env: { TRUSTED_DOCUMENTS: 'require' } });
    base = await listenOnLoopback(required.app);
  });
  afterAll(async () => {
    await required.app.close();
    await t.close();
  });

  it('refuses a graphql-ws subscription whose text is not a trusted document, and streams one that is', async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const refused = subscribeWs(client, stray, { facilityId: t.world.facility.id });
      await until('the refusal', () => refused.completed);
      expect(codesOf(refused)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);

      const trusted = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the subscription', () => required.services.live.subscriberCount === 1);
      const paid = await payOverRest(required.app, t.world.client.bearer_token!, t.world.facility.id, shop);
      await until('the payment', () => paymentIds(trusted).includes(paid));
      expect(trusted.error).toBeNull();
    } finally {
      await client.dispose();
    }
  });

  it("refuses another client's trusted document: documents are each client application's own", async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.otherClient.bearer_token!) });
    try {
      const refused = subscribeWs(client, ACTIVITY, { facilityId: t.world.otherFacility.id });
      await until('the refusal', () => refused.completed);
      expect(codesOf(refused)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    } finally {
      await client.dispose();
    }
  });
});

describe('subscriptions under GRAPHQL_MAX_COST', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { GRAPHQL_MAX_COST: '2' } });
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it('refuses a subscription whose estimated cost is over the limit, with the estimate, subscribing nothing', async () => {
    const client = wsClient(base, { Authorization: bearer(t.world.client.bearer_token!) });
    try {
      const refused = subscribeWs(client, ACTIVITY, { facilityId: t.world.facility.id });
      await until('the refusal', () => refused.completed);
      expect(codesOf(refused)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
      const [error] = refused.error as Array<{
        extensions: { cost: { estimated: number; maximum: number } };
      }>;
      expect(error.extensions.cost.maximum).toBe(2);
      expect(error.extensions.cost.estimated).toBeGreaterThan(2);
      expect(t.services.live.subscriberCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});
