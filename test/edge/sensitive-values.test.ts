import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from '../support/harness';
import { listenOnLoopback, startGateway, type Gateway } from '../support/gateway';
import { createTestApp, type TestApp } from '../support/http';
import { loadRichWorld, type RichWorld } from '../support/rich-world';
import { showsShortSecret } from '../support/leaks';

// Card and bank values sent every way a caller can send them; none may come back or reach a log.
const PAN = '4012888888881881';
const SECURITY_CODE = '8462';
const TRACK = `%B${PAN}^LOVELACE/ADA^3912101?`;
const ACCOUNT = '0007654321098';
const CONFIRMATION = '0007654321099';

const LONG_SECRETS = [PAN, TRACK, ACCOUNT, CONFIRMATION];

/** Each secret wherever it stands (also percent-encoded); the short security code only as a token of its own. */
function leaks(text: string): string[] {
  const found = LONG_SECRETS.filter(
    (secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)),
  );
  if (showsShortSecret(text, SECURITY_CODE)) found.push(SECURITY_CODE);
  return found;
}

const sensitiveQuery = [
  `payment_method[card_number]=${PAN}`,
  `payment_method[security_code]=${SECURITY_CODE}`,
  `payment_method[magnetic_track]=${encodeURIComponent(TRACK)}`,
  `payment_method[account_number]=${ACCOUNT}`,
  `payment_method%5Baccount_number_confirmation%5D=${CONFIRMATION}`,
  `card_number=${PAN}`,
].join('&');

// Nested under any bracket, with an index or an empty one, in either spelling (issue 23).
const bracketQuery = [
  `payment_method[card_number][]=${PAN}`,
  `card_number[0]=${PAN}`,
  `magnetic_track[]=${encodeURIComponent(TRACK)}`,
  `account_number[]=${ACCOUNT}`,
  `payment_method[security_code][x]=${SECURITY_CODE}`,
  `cardNumber=${PAN}`,
  `payment_method[accountNumberConfirmation]=${CONFIRMATION}`,
].join('&');

describeEachDialect('card and bank values never come back or reach a log', (dialect) => {
  let t: TestApp;
  let w: RichWorld;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, { logLines });
    w = await loadRichWorld(t);
  });
  afterAll(() => t.close());

  const answers: LightMyRequestResponse[] = [];
  const send = async (options: InjectOptions) => {
    const res = await t.app.inject(options);
    answers.push(res);
    return res;
  };
  const bearer = () => ({ authorization: `Bearer ${t.world.client.bearer_token}` });

  function expectNoLeak() {
    expect(leaks(`${SECURITY_CODE} ${PAN}`)).toEqual([PAN, SECURITY_CODE]);
    // A request id is random: its four-digit group may be the code by chance, and that is no leak.
    expect(leaks(`"request_id":"59151bd9-39c3-4ed8-${SECURITY_CODE}-f4ef30a48e1c"`)).toEqual([]);
    expect(answers.length).toBeGreaterThan(0);
    for (const res of answers) {
      const text = res.body + JSON.stringify(res.headers);
      const found = leaks(text);
      // The answer is shown only when it leaks, to say where.
      expect({ url: res.raw.req.url, found, text: found.length ? text : '' }).toEqual({
        url: res.raw.req.url,
        found: [],
        text: '',
      });
    }
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect({ line, leaks: leaks(line) }).toEqual({ line, leaks: [] });
  }

  beforeEach(() => {
    answers.length = 0;
    logLines.length = 0;
  });

  it('in a query string: redacted from the logged URL and the echo', async () => {
    const payUrl = `/v1/${t.world.facility.id}/invoiceable_items/retail_payment?${sensitiveQuery}`;
    const paid = await send({
      method: 'POST',
      url: payUrl,
      headers: { ...bearer(), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(paid.statusCode).toBe(400);
    await send({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/flippers?${sensitiveQuery}`,
      headers: bearer(),
    });
    // Malformed and refused requests are logged and answered too.
    await send({ method: 'GET', url: `/v1/${t.world.facility.id}/flippers?${sensitiveQuery}&page[]=%ZZ` });
    await send({
      method: 'DELETE',
      url: `/v1/${t.world.facility.id}/flippers?${sensitiveQuery}`,
      headers: bearer(),
    });
    expect(logLines.some((line) => line.includes('payment_method[card_number]=[FILTERED]'))).toBe(true);
    expectNoLeak();
  });

  it('in a query string nested under any bracket or camelCase: [FILTERED] in the echo, on any route', async () => {
    const listed = await send({
      method: 'GET',
      url: `/v1/${t.world.facility.id}/flippers?${bracketQuery}`,
      headers: bearer(),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().meta.parameters).toMatchObject({
      payment_method: {
        card_number: '[FILTERED]',
        security_code: '[FILTERED]',
        accountNumberConfirmation: '[FILTERED]',
      },
      card_number: '[FILTERED]',
      magnetic_track: '[FILTERED]',
      account_number: '[FILTERED]',
      cardNumber: '[FILTERED]',
    });
    await send({
      method: 'POST',
      url: `/v1/${t.world.facility.id}/invoiceable_items/retail_payment?${bracketQuery}`,
      headers: { ...bearer(), 'content-type': 'application/json' },
      payload: '{}',
    });
    // Unknown routes, inside /v1 and outside it, and GraphQL's variables in a query string.
    expect(
      (await send({ method: 'GET', url: `/v1/${t.world.facility.id}/nope?${bracketQuery}` })).statusCode,
    ).toBe(404);
    await send({ method: 'GET', url: `/nope?${bracketQuery}` });
    const variables = encodeURIComponent(JSON.stringify({ input: { paymentMethod: { cardNumber: PAN } } }));
    await send({
      method: 'GET',
      url: `/graphql?query=%7B__typename%7D&variables=${variables}`,
      headers: bearer(),
    });
    expect(logLines.some((line) => line.includes('payment_method[card_number][]=[FILTERED]'))).toBe(true);
    expectNoLeak();
  });

  it('in a form body and a JSON body: [FILTERED] in the echo, absent from the log', async () => {
    const url = `/v1/${t.world.facility.id}/invoiceable_items/retail_payment`;
    const form = [
      `retail_payment[invoiceable_items][][invoiceable_item_id]=${w.retailItemId}`,
      'retail_payment[invoiceable_items][][quantity]=1',
      'payment_method[kind]=credit_card',
      'payment_method[first_name]=Ada',
      'payment_method[last_name]=Lovelace',
      `payment_method[card_number]=${PAN}`,
      'payment_method[card_type]=mastercard',
      `payment_method[security_code]=${SECURITY_CODE}`,
      'payment_method[expiration_date]=12/39',
    ].join('&');
    const refused = await send({
      method: 'POST',
      url,
      headers: { ...bearer(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    // A Visa number given as a Mastercard: refused, and the echo hides the number.
    expect(refused.statusCode).toBe(400);
    expect(refused.json().meta.parameters.payment_method.card_number).toBe('[FILTERED]');
    await send({
      method: 'POST',
      url,
      headers: { ...bearer(), 'content-type': 'application/json' },
      payload: {
        payment_method: {
          kind: 'ach',
          account_number: ACCOUNT,
          account_number_confirmation: CONFIRMATION,
          magnetic_track: TRACK,
          security_code: Number(SECURITY_CODE),
        },
      },
    });
    // On a route that has nothing to do with cards, and nested deeper than the limit.
    await send({
      method: 'POST',
      url: `/v1/${t.world.facility.id}/notes`,
      headers: { ...bearer(), 'content-type': 'application/json' },
      payload: `{"note":{"card_number":"${PAN}"},"deep":${'{"a":'.repeat(40)}{"security_code":"${SECURITY_CODE}"}${'}'.repeat(40)}}`,
    });
    expectNoLeak();
  });

  it('in GraphQL variables and literals: absent from error messages and the log', async () => {
    const query = `mutation Pay($input: RetailPaymentInput!) {
      payRetail(facilityId: "${t.world.facility.id}", input: $input) { id }
    }`;
    const method = (overrides: Record<string, unknown>) => ({
      invoiceableItems: [{ invoiceableItemId: w.retailItemId, quantity: 1 }],
      paymentMethod: { firstName: 'Ada', lastName: 'Lovelace', kind: 'CREDIT_CARD', ...overrides },
    });
    const post = (body: unknown) =>
      send({
        method: 'POST',
        url: '/graphql',
        headers: { ...bearer(), 'content-type': 'application/json' },
        payload: body as object,
      });
    // Type errors: graphql-js writes the value it refused into its message.
    const typeError = await post({
      query,
      variables: { input: method({ cardNumber: Number(PAN), securityCode: Number(SECURITY_CODE) }) },
    });
    expect(typeError.statusCode).toBe(400);
    expect(typeError.json().errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(typeError.json().errors[0].message).toContain('[FILTERED]');
    await post({
      query,
      variables: { input: method({ cardNumber: PAN, securityCode: SECURITY_CODE, cardType: 'WRONG' }) },
    });
    await post({
      query,
      variables: {
        input: method({
          accountNumber: [ACCOUNT],
          accountNumberConfirmation: { n: CONFIRMATION },
          magneticTrack: 7,
        }),
      },
    });
    // Literals in the operation's text, refused by validation.
    await post({
      query: `mutation { payRetail(facilityId: "${t.world.facility.id}", input: { invoiceableItems: [], paymentMethod: { firstName: "A", lastName: "L", kind: CREDIT_CARD, cardNumber: ${PAN}, securityCode: ${SECURITY_CODE} } }) { id } }`,
    });
    // A business rule refusing a well-typed card.
    await post({
      query,
      variables: {
        input: method({
          cardNumber: PAN,
          cardType: 'VISA',
          securityCode: SECURITY_CODE,
          expirationDate: '01/20',
        }),
      },
    });
    expect(answers.every((res) => res.statusCode < 500)).toBe(true);
    expectNoLeak();
  });
});

describeEachDialect('card and bank values in a query string reach no log in gateway mode', (dialect) => {
  let upstream: TestApp;
  let gateway: Gateway;
  const upstreamLog: string[] = [];
  const gatewayLog: string[] = [];
  beforeAll(async () => {
    upstream = await createTestApp(dialect, { logLines: upstreamLog, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    gateway = await startGateway(
      dialect,
      await listenOnLoopback(upstream.app),
      upstream.world,
      {},
      {
        logLines: gatewayLog,
      },
    );
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('redacts every bracket segment and spelling, on known and unknown routes', async () => {
    const facility = upstream.world.facility.id;
    const headers = { authorization: `Bearer ${upstream.world.client.bearer_token}` };
    const answers = [
      await gateway.app.inject({ method: 'GET', url: `/v1/${facility}/flippers?${bracketQuery}`, headers }),
      await gateway.app.inject({ method: 'GET', url: `/v1/${facility}/nope?${bracketQuery}`, headers }),
      await gateway.app.inject({ method: 'GET', url: `/elsewhere?${bracketQuery}` }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 404, 404]);
    expect(answers[0].json().meta.parameters).toMatchObject({
      card_number: '[FILTERED]',
      cardNumber: '[FILTERED]',
    });
    for (const res of answers) expect(leaks(res.body)).toEqual([]);
    expect(gatewayLog.some((line) => line.includes('card_number[0]=[FILTERED]'))).toBe(true);
    // The upstream logs the forwarded query (its names percent-encoded) as redacted.
    expect(upstreamLog.some((line) => line.includes('card_number%5B0%5D=[FILTERED]'))).toBe(true);
    for (const line of [...gatewayLog, ...upstreamLog])
      expect({ line, leaks: leaks(line) }).toEqual({ line, leaks: [] });
  });
});
