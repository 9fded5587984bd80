import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../../src/config';
import { buildClient } from '../support/factories';
import { createTestApp, type TestApp } from '../support/http';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';
import { loadRichWorld, type RichWorld } from '../support/rich-world';
import { cash, line, loadPaymentWorld, payment, type PaymentWorld } from '../support/payments';

/**
 * UPSTREAM_MAX_STALE_MS and the upstream's Cache-Control over a real facility-ops upstream: a kept
 * page within its bound is answered without asking the upstream, a whole GraphQL response made of
 * such pages without executing, a page past it is asked again once however many requests wait,
 * and a write through the gateway shows at once whatever the bound. The gateway's clock (shared
 * with the upstream, so OAuth timestamps agree) is moved by the test: no test waits for time.
 */
describe('gateway mode: a bounded staleness', () => {
  let upstream: TestApp;
  let w: RichWorld;
  let pay: PaymentWorld;
  /** Bound 1 s. */
  let gateway: Gateway;
  /** Bound one hour. */
  let patient: Gateway;
  /** Every request the upstream received: method, URL and whether it was conditional. */
  let calls: Array<{ url: string; conditional: boolean }> = [];
  /** The Cache-Control the upstream adds to its flipper lists, when set. */
  let cacheControl: string | null = null;
  /** While set, the upstream holds every request until it is resolved. */
  let hold: Promise<void> | null = null;
  let secondClient: ReturnType<typeof buildClient>;

  beforeAll(async () => {
    upstream = await createTestApp('sqlite', {
      env: { RATE_LIMIT_PER_MINUTE: '0' },
      prepare: (app: FastifyInstance) => {
        app.addHook('onRequest', async (request, reply) => {
          calls.push({ url: request.url, conditional: request.headers['if-none-match'] !== undefined });
          // On the raw response: kept pages are written without Fastify's reply headers.
          if (cacheControl !== null && request.url.endsWith('/flippers'))
            reply.raw.setHeader('cache-control', cacheControl);
          if (hold) await hold;
        });
      },
    });
    w = await loadRichWorld(upstream);
    pay = await loadPaymentWorld(upstream);
    const url = await listenOnLoopback(upstream.app);
    const clock = upstream.clock;
    gateway = await startGateway('sqlite', url, upstream.world, { UPSTREAM_MAX_STALE_MS: '1000' }, { clock });
    patient = await startGateway(
      'sqlite',
      url,
      upstream.world,
      { UPSTREAM_MAX_STALE_MS: '3600000' },
      { clock },
    );
    // A second client application of the same company: the same upstream credentials.
    secondClient = buildClient({ company_id: upstream.world.company.id });
    await gateway.loadCallers({ client_applications: [secondClient] });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await patient?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    cacheControl = null;
    calls = [];
  });

  const f = () => upstream.world.facility.id;
  const get = (app: FastifyInstance, url: string, token = upstream.world.client.bearer_token, id?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, ...(id ? { 'x-request-id': id } : {}) },
    });
  const flippers = (token?: string, id?: string) => get(gateway.app, `/v1/${f()}/flippers`, token, id);
  const graphql = (app: FastifyInstance, query: string, variables: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        authorization: `Bearer ${upstream.world.client.bearer_token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ query, variables }),
    });
  /** A page past any bound of these tests but the hour's, and every kept page of the 1 s gateway with it. */
  const pastTheBound = () => upstream.clock.advance(1001);

  /** Polls until the check holds; the test's own timeout bounds it. */
  async function eventually(check: () => boolean): Promise<void> {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('answers a kept page within UPSTREAM_MAX_STALE_MS without asking, and revalidates it past that', async () => {
    const first = await flippers(undefined, 'bound-1');
    expect(first.statusCode).toBe(200);
    calls = [];
    const again = await flippers(undefined, 'bound-2');
    expect(calls).toEqual([]);
    expect(again.json().meta.request_id).toBe('bound-2');
    expect(again.body).toBe(first.body.replace('bound-1', 'bound-2'));

    pastTheBound();
    const later = await flippers();
    expect(later.statusCode).toBe(200);
    expect(calls).toEqual([{ url: `/v1/${f()}/flippers`, conditional: true }]);
    // Renewed by the 304: within the bound again.
    calls = [];
    await flippers();
    expect(calls).toEqual([]);
  });

  it('answers a whole GraphQL response within the bound from memory: the navigation query costs no call', async () => {
    const query = `query ($id: UUID!, $day: LocalDate!) { facility(id: $id) {
      rateAppliedActions(startDate: $day, endDate: $day) { newLedgerId newLedger { id insurance { id amount } } } } }`;
    const variables = { id: f(), day: w.rateAppliedActionsOn };
    pastTheBound();
    const first = await graphql(gateway.app, query, variables);
    expect(first.json().errors).toBeUndefined();
    expect(calls.length).toBeGreaterThan(1); // the action list and each ledger
    calls = [];
    const again = await graphql(gateway.app, query, variables);
    expect(again.body).toBe(first.body);
    expect(calls).toEqual([]);

    // Past the bound: each page asked once, conditionally, and the kept response sent again.
    pastTheBound();
    const later = await graphql(gateway.app, query, variables);
    expect(later.body).toBe(first.body);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((call) => call.conditional)).toBe(true);
  });

  it("honours the upstream's max-age, no-store, no-cache and private, and ignores s-maxage (a private cache)", async () => {
    // max-age=5: fresh for 5 s, then 1 s more within the operator's bound.
    cacheControl = 'max-age=5';
    pastTheBound();
    await flippers();
    calls = [];
    upstream.clock.advance(5500);
    await flippers();
    expect(calls).toEqual([]);
    upstream.clock.advance(600);
    await flippers();
    expect(calls).toHaveLength(1);

    // no-store (here on the 304 that revalidates the kept page): nothing kept from then on, every
    // read unconditional, whatever the bound.
    cacheControl = 'no-store';
    upstream.clock.advance(7000);
    await flippers();
    calls = [];
    await flippers();
    await flippers();
    expect(calls).toEqual([
      { url: `/v1/${f()}/flippers`, conditional: false },
      { url: `/v1/${f()}/flippers`, conditional: false },
    ]);

    // no-cache: kept, but asked every time, whatever the bound.
    cacheControl = 'no-cache';
    await flippers();
    calls = [];
    await flippers();
    await flippers();
    expect(calls).toEqual([
      { url: `/v1/${f()}/flippers`, conditional: true },
      { url: `/v1/${f()}/flippers`, conditional: true },
    ]);

    // s-maxage binds shared caches alone: past the bound it is asked again.
    cacheControl = 's-maxage=600';
    pastTheBound();
    await flippers();
    calls = [];
    pastTheBound();
    await flippers();
    expect(calls).toHaveLength(1);

    // private: used without asking for the client that got it, not for another of its company.
    cacheControl = 'private, max-age=600';
    pastTheBound();
    await flippers();
    calls = [];
    await flippers();
    expect(calls).toEqual([]);
    const other = await flippers(secondClient.bearer_token!);
    expect(other.statusCode).toBe(200);
    expect(calls).toEqual([{ url: `/v1/${f()}/flippers`, conditional: true }]);
  });

  it.each([
    ['an unclosed quote', 'max-age="600'],
    ['a value that is not seconds', 'max-age=600s'],
    ['a negative max-age', 'max-age=-1'],
    ['max-age given twice', 'max-age=600, max-age=600'],
    ['a directive that is not a token', 'max-age=600, {forever}'],
  ])(
    'treats a malformed Cache-Control (%s) as absent: revalidated past the bound, never kept forever',
    async (_label, header) => {
      cacheControl = header;
      pastTheBound();
      await flippers();
      calls = [];
      await flippers();
      expect(calls).toEqual([]); // absent: the operator's bound still holds
      pastTheBound();
      await flippers();
      expect(calls).toEqual([{ url: `/v1/${f()}/flippers`, conditional: true }]);
    },
  );

  it('past the bound, asks the upstream once for many requests: stale-while-revalidate in the background', async () => {
    cacheControl = 'stale-while-revalidate=60';
    pastTheBound();
    const first = await flippers(undefined, 'swr-0');
    pastTheBound();
    calls = [];
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    try {
      // Each answered at once from the kept page while the one revalidation is held upstream.
      for (let i = 1; i <= 5; i++) {
        const res = await flippers(undefined, `swr-${i}`);
        expect(res.body).toBe(first.body.replace('swr-0', `swr-${i}`));
      }
      await eventually(() => calls.length === 1);
    } finally {
      hold = null;
      release();
    }
    expect(calls).toEqual([{ url: `/v1/${f()}/flippers`, conditional: true }]);
  });

  it('past the bound without stale-while-revalidate, many waiting requests share one revalidation', async () => {
    const services = `/v1/${f()}/invoiceable_items/services`;
    await get(gateway.app, services);
    pastTheBound();
    calls = [];
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    let waiting: Array<ReturnType<typeof flippers>> = [];
    try {
      waiting = Array.from({ length: 8 }, (_, i) =>
        get(gateway.app, services, upstream.world.client.bearer_token, `wait-${i}`),
      );
      await eventually(() => calls.length >= 1);
    } finally {
      hold = null;
      release();
    }
    const answers = await Promise.all(waiting);
    expect(answers.map((a) => a.json().meta.request_id)).toEqual(answers.map((_, i) => `wait-${i}`));
    expect(calls).toEqual([{ url: services, conditional: true }]);
  });

  it('shows a write through the gateway at once, whatever the bound (REST and GraphQL)', async () => {
    const retail = `/v1/${f()}/invoiceable_items/retail?per_page=100`;
    const stock = async () => {
      const res = await get(patient.app, retail);
      const items = res.json().invoiceable_items as Array<{ id: string; quantity: number }>;
      return items.find((item) => item.id === pay.cheap.id)!.quantity;
    };
    const query = `query ($id: UUID!) { facility(id: $id) { invoiceableItems(list: RETAIL, perPage: 100) {
      entries { id ... on RetailItem { quantity } } } } }`;
    const graphStock = async () => {
      const data = (await graphql(patient.app, query, { id: f() })).json().data as {
        facility: { invoiceableItems: { entries: Array<{ id: string; quantity?: number }> } };
      };
      return data.facility.invoiceableItems.entries.find((item) => item.id === pay.cheap.id)!.quantity;
    };
    const before = await stock();
    expect(await graphStock()).toBe(before);
    calls = [];
    expect(await stock()).toBe(before);
    expect(await graphStock()).toBe(before);
    expect(calls).toEqual([]); // within the hour's bound: from memory

    const paid = await patient.app.inject({
      method: 'POST',
      url: `/v1/${f()}/invoiceable_items/retail_payment`,
      headers: {
        authorization: `Bearer ${upstream.world.client.bearer_token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify(payment([line(pay.cheap, 2)], cash(5))),
    });
    expect(paid.statusCode).toBe(200);
    expect(await stock()).toBe(before - 2);
    expect(await graphStock()).toBe(before - 2);
  });

  it('refuses the start on a negative or non-numeric UPSTREAM_MAX_STALE_MS, naming it', () => {
    const env = {
      NODE_ENV: 'test',
      UPSTREAM_URL: 'http://127.0.0.1:9',
      UPSTREAM_CONSUMER_KEY: 'k',
      UPSTREAM_CONSUMER_SECRET: 's',
    };
    for (const bad of ['-1', 'soon', '1.5']) {
      let problems: string[] = [];
      try {
        loadConfig({ ...env, UPSTREAM_MAX_STALE_MS: bad });
      } catch (error) {
        problems = (error as ConfigError).problems;
      }
      expect(problems).toEqual([
        `UPSTREAM_MAX_STALE_MS: expected a whole number from 0 to 86400000, got "${bad}"`,
      ]);
    }
    expect(loadConfig(env).upstream!.maxStaleMs).toBe(0);
  });
});
